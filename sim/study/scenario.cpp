#include "sim/study/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "algorithms/registry.hpp"
#include "core/error.hpp"
#include "sim/step/buckets.hpp"
#include "sim/network/flow_backend.hpp"
#include "sim/network/shape_cache.hpp"  // issue 21
#include "sim/step/framework_comm.hpp"
#include "sim/study/global_batch.hpp"
#include "sim/study/scenario_row.hpp"
#include "sim/step/iteration.hpp"
#include "sim/step/loader.hpp"
#include "sim/step/memory.hpp"
#include "sim/step/overhead_setup.hpp"
#include "sim/step/precision.hpp"
#include "sim/step/sharded.hpp"
#include "sim/step/step_level.hpp"  // issue 21
#include "sim/study/sweep.hpp"
#include "sim/step/traced.hpp"  // issue 19
#include "sim/study/whatif.hpp"  // issue 12
#include "topology/rings.hpp"
#include "topology/transport.hpp"

namespace ddpsim::sim {

namespace {

ConfigResult run_config(const ScenarioSpec& spec_in, const Config& cfg, const RunOptions& options, Timeline* timeline)
{
  const int nodes = cfg.nodes;
  const int gpn = cfg.gpus_per_node > 0 ? cfg.gpus_per_node : spec_in.cluster.instance.gpus;
  ScenarioSpec per_row;  // training.global_batch: this row's accumulation steps (global_batch.hpp)
  const ScenarioSpec& spec = with_accum_for(spec_in, nodes * gpn, per_row);
  const InstanceSpec& inst = spec.cluster.instance;
  InstanceSpec node = inst;  // the NIC as the framework's library drives it (SMDDP: EFA, Gloo and PS: TCP)
  node.nic = nic_for_library(backend_of(cfg.framework), inst.nic, gpn);
  const Topology topo(std::move(node), nodes, gpn, spec.cluster.fabric);
  const std::unique_ptr<NetworkBackend> network =
      options.make_network ? options.make_network(topo) : make_backend(options.engine, topo);  // issue 12: multijob
  network->set_timeline(timeline);

  ComputeParams cp = step_compute(spec);
  if (gpn > 1) cp.speedup /= cp.node_slowdown;  // the one-node loss (compute.hpp)
  if (nodes > 1) cp.speedup /= std::pow(cp.doubling_slowdown, std::log2(static_cast<double>(nodes)));  // ... across nodes
  cp.speedup /= slowest_gpu_factor(topo.gpu_count(), cp.gpu_spread);  // the slowest GPU sets the pace

  IterationSetup setup;
  setup.model = &spec.model;
  setup.times = layer_times(spec.model, inst.gpu, cp);
  FrameworkOptions& fo = setup.framework;
  fo.framework = cfg.framework;
  fo.bucket_cap = spec.training.bucket_cap;
  fo.first_bucket_cap = spec.training.first_bucket_cap;
  fo.bytes_per_element = gradient_bytes(spec.training.precision, spec.training.amp);
  fo.fp16_compress = spec.training.fp16_compress;
  fo.horovod = spec.training.horovod;
  fo.fusion_threshold = spec.training.fusion_threshold;
  fo.cycle_time = spec.training.cycle_time;
  fo.smddp_fusion_threshold = spec.training.smddp_fusion_threshold;
  fo.find_unused_parameters = spec.training.find_unused_parameters;
  if (cfg.framework == Framework::apex_ddp) {
    // apex ships a bucket once it holds message_size elements, the first one too; it has no comm hooks.
    fo.first_bucket_cap = fo.bucket_cap = Bytes{spec.training.apex_message_size * static_cast<std::uint64_t>(fo.bytes_per_element)};
    fo.fp16_compress = false;
    fo.find_unused_parameters = false;
  }
  setup.accum_steps = spec.training.grad_accum_steps;
  setup.optimizer = optimizer_time(spec.model, inst.gpu, spec.training.optimizer);
  setup.step_overhead = framework_step_overhead(cfg.framework, spec.training.lightning_overhead);
  setup.step_overhead += spec.extra_step_overhead;  // calibrate job's fitted overhead (issue 10), 0 by default
  if (gpn > 1) setup.step_overhead += spec.overheads.node_step_cost;  // the one-node loss as a cost per step
  const double batches = static_cast<double>(spec.training.batch_per_gpu) * spec.training.grad_accum_steps;
  if (spec.data.workers > 0)  // the node's vCPUs shared by its GPUs' workers (sim/step/loader.hpp)
    setup.loader = loader_time(batches, spec.data.per_sample_cpu_s, spec.data.workers, inst.vcpus, gpn);
  // Every reduction is priced by the one CollectiveModel; the framework says how it is run.
  FrameworkComm fc = framework_comm(cfg.framework, topo, spec.communication.algorithm, spec.communication.profile,
                                    spec.training.gloo_step_overhead);
  fc.collective.tuner = spec.communication.tuner;  // NCCL's chooser and its NCCL_PROTO (issue 18)
  if (spec.data.workers > 0 && nodes > 1 && fc.collective.nccl)  // NCCL's socket threads take loader vCPUs
    setup.loader_lost_while_comm = loader_share_lost(spec.data.workers, inst.vcpus, gpn, inst.nic.spinning_threads);
  if (fc.collective.nccl) fc.collective.protocol = spec.communication.protocol;
  if (options.shapes)  // issue 21: one scope per row shape (sim/network/shape_cache.hpp)
    fc.collective.shapes = options.shapes->scope(std::to_string(nodes) + "x" + std::to_string(gpn) + "/" +
                                                 std::string(to_string(cfg.framework)) + (cfg.compiled ? "/compiled" : ""));
  const CollectiveModel model(topo, fc.collective);
  StepLevelTimer steps(model, *network);  // issue 21: --granularity step
  setup.collective = [&](Bytes bytes) {
    // [issue 11] sharded frameworks reduce-scatter their gradient buckets (sharded.hpp).
    const bool sharded = shard_stage(cfg.framework) != ShardStage::none;
    const algo::CollectiveOp op = sharded ? gradient_op(cfg.framework) : algo::CollectiveOp::all_reduce;
    PricedCollective p = sharded ? model.price(op, bytes) : framework_reduce(fc, model, bytes);
    if (options.step_level) steps.apply(p, op, bytes, !sharded && !fc.staged_from.empty() && bytes.n > 0);
    return p;
  };
  setup.network = network.get();
  if (options.per_rank) {  // issue 21: every rank simulated, none folded
    setup.classes.assign(static_cast<std::size_t>(topo.gpu_count()), RankClass{1, 1.0, setup.loader});
    if (auto* f = dynamic_cast<FlowBackend*>(network.get())) f->set_folding(false);
  }
  // Issue 9: what real jobs pay per step (overhead_setup.hpp).
  apply_overheads(spec.overheads,
                  OverheadContext{cfg.framework, spec.training.optimizer, spec.training.precision,
                                  shard_stage(cfg.framework) != ShardStage::none, spec.training.gloo_step_overhead,
                                  spec.training.gradient_as_bucket_view, spec.training.channels_last, spec.training.apex_predivide},
                  topo, setup);
  if (const TracedModel* t = spec.model.traced.get()) {
    // Issue 19: the trace measured what these overheads model (interference, copies, launches,
    // the optimizer); the host work between phases and the input wait are a fixed cost per step.
    setup.overheads = IterationOverheads{};
    const double k = gpu_ratio(*t, inst.gpu, cp.precision).point;
    setup.optimizer = Time::from_seconds(t->optimizer.seconds() + t->optimizer_gpu.seconds() * (k - 1));
    setup.step_overhead += t->other + t->input_wait;
  }
  IterationResult it = simulate_iteration(setup, timeline);
  // [issue 11] sharded frameworks: parameter all-gathers priced as (op, bytes) jobs (sharded.hpp).
  const GatherCost gathers = price_gathers(
      parameter_gathers(spec.model, cfg.framework, fo.bytes_per_element, spec.training.bucket_cap), setup.times,
      setup.accum_steps, *network, [&](algo::CollectiveOp op, Bytes bytes) { return model.price(op, bytes).schedule; });
  it.comm_busy += gathers.busy;
  it.exposed_comm += gathers.exposed;
  it.step += gathers.exposed;
  const auto* flow = dynamic_cast<const FlowBackend*>(network.get());

  ConfigResult r = report_row(spec, cfg, topo, it, gathers, fc.collective.algorithm, fo, batches);
  if (flow) r.simulated = flow->last_stats().folded ? "symmetric" : "per-rank";
  if (options.per_rank) r.simulated = "per-rank";
  // Issue 17: the what-ifs that need the nominal step (e.g. stragglers, sim/study/whatifs/).
  run_whatifs(spec.whatifs, WhatIf::Stage::with_step, WhatIfInput{spec, r, &it, setup.loader, gpn}, r);
  return r;
}

// Which configuration the timeline records: the last, or the one --trace-config names.
std::size_t trace_index(const std::vector<Config>& configs, const RunOptions& o)
{
  if (o.trace_nodes <= 0) return configs.size() - 1;
  for (std::size_t i = 0; i < configs.size(); ++i)
    if (configs[i].nodes == o.trace_nodes && !configs[i].compiled && (!o.trace_framework || *o.trace_framework == configs[i].framework))
      return i;
  throw UserError("--trace-config: the scenario runs no configuration with " + std::to_string(o.trace_nodes) + " nodes" +
                  (o.trace_framework ? " and framework " + std::string(to_string(*o.trace_framework)) : ""));
}

}  // namespace

const ConfigResult& block_base(const std::vector<ConfigResult>& results, const ConfigResult& r)
{
  for (const ConfigResult& b : results)
    if (b.framework == r.framework) return b;
  return r;
}

ScenarioReport run_scenario(const ScenarioSpec& spec, const RunOptions& options)
{
  DDPSIM_CHECK(!spec.cluster.nodes.empty(), "scenario without node counts");
  ScenarioReport report{spec.name, spec.description, std::string(to_string(options.engine)), spec.model.name,
                        spec.model.parameter_count(), {}, {}, {}, {}, "coarse"};
  std::vector<Config> configs;
  std::vector<Framework> frameworks{spec.training.framework};
  frameworks.insert(frameworks.end(), spec.training.compare.begin(), spec.training.compare.end());
  for (Framework f : frameworks)
    for (std::size_t i = 0; i < spec.cluster.nodes.size(); ++i)
      configs.push_back(Config{spec.cluster.nodes[i],
                               spec.cluster.gpus_per_node_each.empty() ? spec.cluster.gpus_per_node
                                                                       : spec.cluster.gpus_per_node_each.at(i),
                               f});
  // Issue 12: compiled rows (the primary framework) after all others, for the compiler's node counts.
  std::optional<ScenarioSpec> compiled;
  if (spec.compiler) {
    compiled = compiled_scenario(spec);
    for (int nodes : spec.compiler->nodes.empty() ? std::vector<int>{spec.cluster.nodes.front()} : spec.compiler->nodes) {
      int gpn = spec.cluster.gpus_per_node;  // with a per-entry list: that of the first entry with this node count
      for (std::size_t i = 0; i < spec.cluster.gpus_per_node_each.size(); ++i)
        if (spec.cluster.nodes[i] == nodes) {
          gpn = spec.cluster.gpus_per_node_each[i];
          break;
        }
      configs.push_back(Config{nodes, gpn, spec.training.framework, true});
    }
  }
  auto spec_of = [&](const Config& c) -> const ScenarioSpec& { return c.compiled ? *compiled : spec; };
  report.price_source = spec.cluster.instance.price_source;
  if (options.step_level) report.granularity = "step";
  report.profile_source = spec.communication.profile_source;
  const std::size_t n = configs.size();
  // [issue 11] A shard runs its own configurations (RunOptions::shard_index) and the first of
  // each framework's block: the base of that block's speedup and efficiency (block_base).
  std::vector<std::size_t> todo;
  std::vector<Framework> seen;
  for (std::size_t i = 0; i < n; ++i) {
    const bool base = std::find(seen.begin(), seen.end(), configs[i].framework) == seen.end();
    if (base) seen.push_back(configs[i].framework);
    if (base || i % options.shard_count == options.shard_index) todo.push_back(i);
  }
  const std::size_t traced = trace_index(configs, options);
  auto one = [&](std::size_t k, Timeline* t) { return run_config(spec_of(configs[todo[k]]), configs[todo[k]], options, t); };
  auto tick = [&](std::size_t done) {
    if (options.progress) options.progress(done, todo.size());
  };
  std::vector<ConfigResult> got;
  if (options.jobs > 1 && todo.size() > 1) {
    // Each configuration in its own process; results come back in order, bit for bit (sweep.hpp).
    std::vector<Timeline*> timelines(todo.size(), nullptr);
    for (std::size_t k = 0; k < todo.size(); ++k)
      if (todo[k] == traced) timelines[k] = options.timeline;
    got = fan_out(todo.size(), options.jobs, one, timelines, tick);
  } else {
    for (std::size_t k = 0; k < todo.size(); ++k) {
      got.push_back(one(k, todo[k] == traced ? options.timeline : nullptr));
      tick(k + 1);
    }
  }
  report.results.assign(n, got.front());
  for (std::size_t k = 0; k < todo.size(); ++k) report.results[todo[k]] = std::move(got[k]);
  for (std::size_t i = 0; i < n; ++i)
    if (configs[i].compiled) {
      report.results[i].compiler = spec.compiler->name;
      report.results[i].compiler_compute_scale = spec.compiler->compute_scale;
      report.results[i].compiler_memory_scale = spec.compiler->memory_scale;
    }
  for (ConfigResult& r : report.results) {
    // Speedup and efficiency within each framework's block: a ratio across frameworks would mix
    // the framework's gain into the scaling (issue 11). Compiled rows keep the uncompiled first
    // row of their framework as base, so they show the compiler's gain (docs/whatif.md).
    const ConfigResult& base = block_base(report.results, r);
    r.speedup = base.total_time_s / r.total_time_s;
    r.scaling_efficiency = r.speedup * base.gpus / r.gpus;
    apply_whatifs(spec, r);  // issue 12: which degraded links this size has
    // Issue 17: the what-ifs on the finished row (e.g. failures and checkpoints on the failure-free time).
    run_whatifs(spec.whatifs, WhatIf::Stage::after_run, WhatIfInput{spec, r, nullptr, Time{0}, r.gpus / std::max(1, r.nodes)}, r);
  }
  return report;
}

ComputeParams step_compute(const ScenarioSpec& spec)
{
  ComputeParams cp = spec.compute;
  cp.batch_per_gpu = spec.training.batch_per_gpu;
  cp.precision = spec.training.precision;
  cp.amp = spec.training.amp;
  cp.activation_checkpointing = spec.training.activation_checkpointing;
  cp.channels_last = spec.training.channels_last;
  return cp;
}

bool uses_nccl(const ScenarioSpec& spec)
{
  bool nccl = backend_of(spec.training.framework) == "nccl";
  for (Framework f : spec.training.compare) nccl = nccl || backend_of(f) == "nccl";
  return nccl;
}

}  // namespace ddpsim::sim
