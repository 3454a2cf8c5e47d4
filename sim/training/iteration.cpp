#include "sim/training/iteration.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline)
{
  DDPSIM_CHECK(setup.model && setup.network && setup.collective, "incomplete iteration setup");
  DDPSIM_CHECK(setup.accum_steps >= 1, "gradient accumulation needs at least one micro-step");
  const ModelSpec& model = *setup.model;
  const std::size_t nlayers = model.layers.size();
  DDPSIM_CHECK(setup.times.forward.size() == nlayers && setup.times.backward.size() == nlayers,
               "layer times do not match the model");

  IterationResult r;
  const std::int64_t k = setup.accum_steps;
  r.forward = setup.times.forward_total * k;
  r.backward = setup.times.backward_total * k;
  r.optimizer = setup.optimizer;
  r.overhead = setup.step_overhead;

  // The k-1 accumulation micro-steps, then the last micro-step's forward.
  const Time last_start = (setup.times.forward_total + setup.times.backward_total) * (k - 1);
  if (timeline && k > 1) timeline->add({"node 0", "gpu0 compute", "accumulation micro-steps", Time{0}, last_start, {}});
  // When each layer's gradients are ready: backward runs from the last layer to the first.
  std::vector<Time> grad_ready(nlayers);
  Time t = last_start + setup.times.forward_total;
  for (std::size_t i = nlayers; i-- > 0;) {
    if (timeline) timeline->add({"node 0", "gpu0 compute", "bwd " + model.layers[i].name, t, t + setup.times.backward[i], {}});
    t += setup.times.backward[i];
    grad_ready[i] = t;
  }
  const Time backward_end = t;

  const std::vector<CommJob> plan = plan_communication(model, grad_ready, setup.framework);
  std::vector<CollectiveJob> jobs;
  jobs.reserve(plan.size());
  for (std::size_t b = 0; b < plan.size(); ++b)
    jobs.push_back(CollectiveJob{plan[b].ready, 0, setup.collective(plan[b].bytes), "bucket " + std::to_string(b)});
  const std::vector<JobTiming> timings = setup.network->run(jobs);
  DDPSIM_CHECK(timings.size() == jobs.size(), "network backend lost jobs");

  Time comm_end{0};
  for (std::size_t b = 0; b < jobs.size(); ++b) {
    r.buckets.push_back(BucketTiming{plan[b].bytes, jobs[b].ready, timings[b].start, timings[b].end});
    r.comm_busy += timings[b].end - timings[b].start;
    comm_end = max(comm_end, timings[b].end);
    if (timeline)
      timeline->add({"node 0", "gpu0 comm", jobs[b].label, timings[b].start, timings[b].end,
                     {{"bytes", std::to_string(plan[b].bytes.n)}, {"bucket", std::to_string(b)}}});
  }
  const Time grads_done = max(backward_end, comm_end);
  r.exposed_comm = grads_done - backward_end;
  const Time compute_step = grads_done + r.optimizer + r.overhead;
  if (timeline) {
    timeline->add({"node 0", "gpu0 compute", "forward", last_start, last_start + setup.times.forward_total, {}});
    timeline->add({"node 0", "gpu0 compute", "optimizer", grads_done, grads_done + r.optimizer, {}});
  }
  r.loader_wait = setup.loader > compute_step ? setup.loader - compute_step : Time{0};
  r.step = compute_step + r.loader_wait;
  return r;
}

}  // namespace ddpsim::sim
