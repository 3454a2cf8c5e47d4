#include "sim/iteration.hpp"

#include <map>

#include "core/error.hpp"

namespace ddpsim::sim {

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline)
{
  DDPSIM_CHECK(setup.model && setup.network && setup.collective, "incomplete iteration setup");
  const ModelSpec& model = *setup.model;
  const std::size_t nlayers = model.layers.size();
  DDPSIM_CHECK(setup.times.forward.size() == nlayers && setup.times.backward.size() == nlayers,
               "layer times do not match the model");

  IterationResult r;
  r.forward = setup.times.forward_total;
  r.backward = setup.times.backward_total;
  r.optimizer = setup.optimizer;

  // When each layer's gradients are ready: backward runs from the last layer to the first.
  std::vector<Time> grad_ready(nlayers);
  Time t = r.forward;
  for (std::size_t i = nlayers; i-- > 0;) {
    if (timeline) timeline->add({"node 0", "gpu0 compute", "bwd " + model.layers[i].name, t, t + setup.times.backward[i], {}});
    t += setup.times.backward[i];
    grad_ready[i] = t;
  }
  const Time backward_end = t;

  std::vector<CollectiveJob> jobs;
  jobs.reserve(setup.buckets.size());
  for (std::size_t b = 0; b < setup.buckets.size(); ++b) {
    Time ready{0};
    for (const TensorRef& ref : setup.buckets[b].tensors) ready = max(ready, grad_ready[ref.layer]);
    jobs.push_back(CollectiveJob{ready, 0, setup.collective(setup.buckets[b].bytes), "bucket " + std::to_string(b)});
  }
  const std::vector<JobTiming> timings = setup.network->run(jobs);
  DDPSIM_CHECK(timings.size() == jobs.size(), "network backend lost jobs");

  Time comm_end{0};
  for (std::size_t b = 0; b < jobs.size(); ++b) {
    r.buckets.push_back(BucketTiming{setup.buckets[b].bytes, jobs[b].ready, timings[b].start, timings[b].end});
    r.comm_busy += timings[b].end - timings[b].start;
    comm_end = max(comm_end, timings[b].end);
    if (timeline)
      timeline->add({"node 0", "gpu0 comm", jobs[b].label, timings[b].start, timings[b].end,
                     {{"bytes", std::to_string(setup.buckets[b].bytes.n)}, {"bucket", std::to_string(b)}}});
  }
  const Time grads_done = max(backward_end, comm_end);
  r.exposed_comm = grads_done - backward_end;
  const Time compute_step = grads_done + r.optimizer;
  if (timeline) {
    timeline->add({"node 0", "gpu0 compute", "forward", Time{0}, r.forward, {}});
    timeline->add({"node 0", "gpu0 compute", "optimizer", grads_done, compute_step, {}});
  }
  r.loader_wait = setup.loader > compute_step ? setup.loader - compute_step : Time{0};
  r.step = compute_step + r.loader_wait;
  return r;
}

}  // namespace ddpsim::sim
