#include "sim/scenario.hpp"

#include <cmath>

#include "algorithms/registry.hpp"
#include "core/error.hpp"
#include "sim/buckets.hpp"
#include "sim/flow_backend.hpp"
#include "sim/iteration.hpp"
#include "sim/sweep.hpp"
#include "topology/rings.hpp"

namespace ddpsim::sim {

std::string_view to_string(Framework f)
{
  switch (f) {
    case Framework::pytorch_ddp: return "pytorch-ddp";
    case Framework::lightning: return "lightning";
  }
  return "?";
}

namespace {

std::string dominant_bound(const IterationResult& it)
{
  // The step is max(loader, compute + exposed communication + optimizer): when the loader is
  // the longer, the input pipeline bounds it; otherwise the larger of the two GPU-side shares.
  if (it.loader_wait > Time{0}) return "input";
  if (it.exposed_comm > it.forward + it.backward + it.optimizer) return "communication";
  return "compute";
}

ConfigResult run_config(const ScenarioSpec& spec, int nodes, const RunOptions& options, Timeline* timeline)
{
  const InstanceSpec& inst = spec.cluster.instance;
  const int gpn = spec.cluster.gpus_per_node > 0 ? spec.cluster.gpus_per_node : inst.gpus;
  const Topology topo(inst, nodes, gpn, spec.cluster.fabric);
  const std::unique_ptr<NetworkBackend> network = make_backend(options.engine, topo);
  network->set_timeline(timeline);
  const algo::Algorithm& algorithm = algo::Registry::instance().get(spec.communication.algorithm);

  ComputeParams cp = spec.compute;
  cp.batch_per_gpu = spec.training.batch_per_gpu;
  cp.precision = spec.training.precision;

  IterationSetup setup;
  setup.model = &spec.model;
  setup.times = layer_times(spec.model, inst.gpu, cp);
  setup.buckets = ddp_buckets(spec.model, bytes_per_element(spec.training.precision), spec.training.first_bucket_cap,
                              spec.training.bucket_cap);
  setup.optimizer = optimizer_time(spec.model, inst.gpu, spec.training.optimizer);
  if (spec.data.workers > 0)
    setup.loader = Time::from_seconds(spec.data.per_sample_cpu_s * spec.training.batch_per_gpu / spec.data.workers);
  const std::vector<VertexId> ranks = ring_order(topo);
  setup.collective = [&](Bytes bytes) {
    algo::Request req{algo::CollectiveOp::all_reduce, bytes, &topo, ranks, spec.communication.latency, 1};
    return algorithm.phases(req);
  };
  setup.network = network.get();
  const IterationResult it = simulate_iteration(setup, timeline);
  const auto* flow = dynamic_cast<const FlowBackend*>(network.get());

  ConfigResult r;
  r.instance = inst.name;
  r.nodes = nodes;
  r.gpus = topo.gpu_count();
  r.framework = std::string(to_string(spec.training.framework));
  r.backend = "nccl";
  r.algorithm = std::string(algorithm.name());
  r.step_time_s = it.step.seconds();
  const double global_batch = static_cast<double>(spec.training.batch_per_gpu) * r.gpus;
  r.samples_per_s = global_batch / r.step_time_s;
  if (spec.training.steps) {
    r.steps = *spec.training.steps;
  } else {
    // The sampler shards the epoch over ranks; the last partial batch still costs a step.
    const auto per_epoch = static_cast<std::uint64_t>(std::ceil(static_cast<double>(spec.training.samples) / global_batch));
    r.steps = per_epoch * static_cast<std::uint64_t>(spec.training.epochs);
  }
  r.total_time_s = spec.cluster.startup.seconds() + r.step_time_s * static_cast<double>(r.steps);
  r.compute_s = (it.forward + it.backward).seconds();
  r.comm_s = it.comm_busy.seconds();
  r.exposed_comm_s = it.exposed_comm.seconds();
  r.optimizer_s = it.optimizer.seconds();
  r.loader_wait_s = it.loader_wait.seconds();
  r.bound = dominant_bound(it);
  for (const BucketTiming& b : it.buckets) r.bucket_bytes.push_back(b.bytes.n);
  r.cost_usd = inst.price_usd_per_hour * nodes * r.total_time_s / 3600.0;
  if (auto o = spec.observed_minutes.find(nodes); o != spec.observed_minutes.end()) r.observed_minutes = o->second;
  if (flow) r.simulated = flow->last_stats().folded ? "symmetric" : "per-rank";
  return r;
}

}  // namespace

ScenarioReport run_scenario(const ScenarioSpec& spec, const RunOptions& options)
{
  DDPSIM_CHECK(!spec.cluster.nodes.empty(), "scenario without node counts");
  ScenarioReport report{spec.name, spec.description, std::string(to_string(options.engine)), spec.model.name,
                        spec.model.parameter_count(), {}};
  const std::size_t n = spec.cluster.nodes.size();
  if (options.jobs > 1 && n > 1) {
    // Each configuration in its own process; results come back in order, bit for bit (sweep.hpp).
    std::vector<Timeline*> timelines(n, nullptr);
    timelines.back() = options.timeline;
    report.results = fan_out(n, options.jobs, [&](std::size_t i, Timeline* t) { return run_config(spec, spec.cluster.nodes[i], options, t); },
                             timelines);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      report.results.push_back(run_config(spec, spec.cluster.nodes[i], options, i + 1 == n ? options.timeline : nullptr));
  }
  const ConfigResult& base = report.results.front();
  for (ConfigResult& r : report.results) {
    r.speedup = base.total_time_s / r.total_time_s;
    r.scaling_efficiency = r.speedup * base.gpus / r.gpus;
  }
  return report;
}

}  // namespace ddpsim::sim
