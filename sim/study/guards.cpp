#include "sim/study/guards.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "sim/step/compute.hpp"
#include "sim/study/global_batch.hpp"
#include "sim/step/sharded.hpp"
#include "sim/step/precision.hpp"
#include "sim/step/frameworks.hpp"
#include "sim/step/step_level.hpp"

namespace ddpsim::sim {
namespace {

std::string seconds_text(double s)
{
  char buf[48];
  if (std::isfinite(s)) std::snprintf(buf, sizeof buf, "%.3g s (%.3g days)", s, s / 86400);
  else std::snprintf(buf, sizeof buf, "beyond any clock");
  return buf;
}

}  // namespace

std::vector<TimeTerm> iteration_terms(const ScenarioSpec& spec, int nodes, int gpus_per_node)
{
  std::vector<TimeTerm> terms;
  const InstanceSpec& inst = spec.cluster.instance;
  const double k = accum_steps_for(spec.training, nodes * gpus_per_node);
  ComputeParams cp = step_compute(spec);
  const std::string compute_field = spec.compute.measured_step_s ? "compute.measured_step_s" : "model";
  double micro = INFINITY;  // forward + backward of one micro-step
  try {
    const LayerTimes lt = layer_times(spec.model, inst.gpu, cp);
    micro = lt.forward_total.seconds() + lt.backward_total.seconds();
  } catch (const OverflowError&) {
    // a single micro-step is already past the clock: micro stays infinite
  }
  terms.push_back({compute_field, micro, "forward + backward of one micro-step"});
  terms.push_back({"training.grad_accum_steps", micro * k, "compute of all micro-steps"});
  if (spec.data.workers > 0)
    terms.push_back({"data.per_sample_cpu_s", spec.data.per_sample_cpu_s * spec.training.batch_per_gpu * k / spec.data.workers,
                     "input loading per step"});
  // All-reduce lower bound: every node must send at least (nodes-1)/nodes of the gradients out
  // through its NICs (any algorithm: each node's contribution must reach every other node).
  const double grad_bytes =
      static_cast<double>(spec.model.parameter_count()) * std::min(gradient_bytes(spec.training.precision, spec.training.amp),
                                                                    spec.training.fp16_compress ? 2 : 8);
  if (nodes > 1) {
    const double nic = inst.nic.bandwidth.bytes_per_s * std::max(1, inst.nic.count);
    const double per_node = grad_bytes * gpus_per_node;  // data that leaves a node in a reduce, lower bound /gpn
    terms.push_back({"cluster.overrides.nic.bandwidth", per_node / gpus_per_node * (nodes - 1) / nodes / nic,
                     "gradient all-reduce through the NICs"});
  }
  std::stable_sort(terms.begin(), terms.end(), [](const TimeTerm& a, const TimeTerm& b) { return a.seconds > b.seconds; });
  return terms;
}

void check_time_range(const ScenarioSpec& spec)
{
  for (std::size_t i = 0; i < spec.cluster.nodes.size(); ++i) {
    const int nodes = spec.cluster.nodes[i];
    const int gpn = !spec.cluster.gpus_per_node_each.empty() ? spec.cluster.gpus_per_node_each[i]
                    : spec.cluster.gpus_per_node > 0          ? spec.cluster.gpus_per_node
                                                              : spec.cluster.instance.gpus;
    for (const TimeTerm& t : iteration_terms(spec, nodes, gpn))
      if (!(t.seconds < Time::kMaxSeconds))
        throw UserError(SourceLocation{}, t.field,
                        t.what + " would take " + seconds_text(t.seconds) + " on " + std::to_string(nodes) +
                            " node(s), past the simulated clock's limit of 106 days per iteration");
  }
}

UserError blame_overflow(const ScenarioSpec& spec, const std::string& detail)
{
  std::vector<TimeTerm> worst;
  for (std::size_t i = 0; i < spec.cluster.nodes.size(); ++i) {
    const int gpn = !spec.cluster.gpus_per_node_each.empty() ? spec.cluster.gpus_per_node_each[i]
                    : spec.cluster.gpus_per_node > 0          ? spec.cluster.gpus_per_node
                                                              : spec.cluster.instance.gpus;
    const auto terms = iteration_terms(spec, spec.cluster.nodes[i], gpn);
    if (!terms.empty() && (worst.empty() || terms.front().seconds > worst.front().seconds)) worst = terms;
  }
  const std::string field = worst.empty() ? "cluster" : worst.front().field;
  return UserError(SourceLocation{}, field,
                   "the simulated iteration does not fit the clock (" + detail + "); the largest part is " +
                       (worst.empty() ? std::string("unknown") : worst.front().what + ", at least " + seconds_text(worst.front().seconds)));
}

// Gradient buckets close once they reach their cap, so there is at most one per tensor whatever
// bucket_cap_mb says; ZeRO-1/2 gather the updated parameters in chunks of exactly bucket_cap
// (sharded.cpp parameter_gathers), so there the count grows as the cap shrinks; FSDP gathers per
// layer, forward and backward. Elements counted at 4 bytes: an upper bound for any precision.
std::uint64_t collectives_per_step(const ScenarioSpec& spec)
{
  std::vector<Framework> all{spec.training.framework};
  all.insert(all.end(), spec.training.compare.begin(), spec.training.compare.end());
  std::uint64_t most = 0;
  for (Framework f : all) {
    std::uint64_t n = spec.model.tensor_count();
    const ShardStage stage = shard_stage(f);
    if (stage == ShardStage::parameters) n += 2 * spec.model.layers.size();
    else if (stage != ShardStage::none)
      n += spec.model.parameter_count() * 4 / std::max<std::uint64_t>(1, spec.training.bucket_cap.n) + 1;
    most = std::max(most, n);
  }
  return most;
}

void check_scenario_resources(const ScenarioSpec& spec, EngineKind engine, bool step_level, const ResourceLimits& limits)
{
  std::vector<Framework> all{spec.training.framework};
  all.insert(all.end(), spec.training.compare.begin(), spec.training.compare.end());
  const Workload workload = std::any_of(all.begin(), all.end(), [](Framework f) { return traits(f).host_all_to_all; })
                                ? Workload::all_to_all
                                : Workload::ring;
  for (std::size_t i = 0; i < spec.cluster.nodes.size(); ++i) {
    const int gpn = !spec.cluster.gpus_per_node_each.empty() ? spec.cluster.gpus_per_node_each[i]
                    : spec.cluster.gpus_per_node > 0          ? spec.cluster.gpus_per_node
                                                              : spec.cluster.instance.gpus;
    check_resources(spec.cluster.nodes[i], gpn, engine, workload, limits, "cluster.nodes");
    const std::int64_t gpus = std::int64_t{spec.cluster.nodes[i]} * gpn;
    const std::int64_t step_max = engine == EngineKind::flow ? kMaxStepLevelFlowGpus : kMaxStepLevelGpus;
    if (step_level && gpus > step_max)
      throw UserError("--granularity: step simulates every send, at most " + std::to_string(step_max) + " GPUs on the " +
                      std::string(to_string(engine)) + " engine; cluster.nodes asks for " + std::to_string(gpus) +
                      " (use coarse)");
    check_collectives(collectives_per_step(spec), gpus, limits, "training.bucket_cap_mb");  // issue 21: ZeRO's gathers
  }
}

void add_engine_warnings(const ScenarioSpec& spec, EngineKind engine, ScenarioReport& report)
{
  const FabricSpec& f = spec.cluster.fabric;
  if (engine != EngineKind::analytical || f.kind != FabricKind::leaf_spine || f.oversubscription <= 1) return;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%g:1", f.oversubscription);
  for (ConfigResult& r : report.results)
    if (r.nodes > f.nodes_per_leaf)
      r.warnings.push_back(std::string("the fabric is oversubscribed ") + ratio + " across " +
                           std::to_string((r.nodes + f.nodes_per_leaf - 1) / f.nodes_per_leaf) +
                           " leaves but the analytical engine does not share the leaf uplinks among concurrent transfers; run --engine flow "
                           "(or engine: flow) for contention");
}

}  // namespace ddpsim::sim
