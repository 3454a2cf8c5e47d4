#include "sim/study/scenario_row.hpp"

#include <cmath>

#include "sim/step/framework_comm.hpp"
#include "sim/step/memory.hpp"
#include "sim/step/precision.hpp"

namespace ddpsim::sim {

namespace {

std::string dominant_bound(const IterationResult& it)
{
  // The step is max(loader, compute + exposed communication + optimizer): when the loader is
  // the longer, the input pipeline bounds it; otherwise the larger of the two GPU-side shares.
  if (it.loader_wait > Time{0}) return "input";
  if (it.exposed_comm > it.forward + it.backward + it.interference + it.bucket_copy + it.optimizer + it.overhead)
    return "communication";
  return "compute";
}

}  // namespace

ConfigResult report_row(const ScenarioSpec& spec, const Config& cfg, const Topology& topo, const IterationResult& it,
                        const GatherCost& gathers, const std::string& algorithm, const FrameworkOptions& fo, double batches)
{
  const InstanceSpec& inst = spec.cluster.instance;
  const int nodes = cfg.nodes;
  ConfigResult r;
  r.instance = inst.name;
  r.nodes = nodes;
  r.gpus = topo.gpu_count();
  r.framework = std::string(to_string(cfg.framework));
  r.backend = std::string(backend_of(cfg.framework));
  r.algorithm = algorithm;
  r.step_time_s = it.step.seconds();
  const double global_batch = batches * r.gpus;
  r.samples_per_s = global_batch / r.step_time_s;
  r.mfu = r.samples_per_s * model_flops_per_sample(spec.model) / (r.gpus * inst.gpu.peak_flops(spec.training.precision));
  r.tokens_per_s = r.samples_per_s * static_cast<double>(spec.model.tokens_per_sample);
  if (spec.training.steps) {
    r.steps = *spec.training.steps;
  } else {
    // The sampler shards the epoch over ranks; the last partial batch still costs a step.
    const auto per_epoch = static_cast<std::uint64_t>(std::ceil(static_cast<double>(spec.training.samples) / global_batch));
    r.steps = per_epoch * static_cast<std::uint64_t>(spec.training.epochs);
  }
  r.startup_s = spec.cluster.startup.seconds();
  r.total_time_s = r.startup_s + r.step_time_s * static_cast<double>(r.steps);
  r.compute_s = (it.forward + it.backward).seconds();
  r.comm_s = it.comm_busy.seconds();
  r.exposed_comm_s = it.exposed_comm.seconds();
  r.optimizer_s = it.optimizer.seconds();
  r.loader_wait_s = it.loader_wait.seconds();
  r.overhead_s = it.overhead.seconds();
  r.grad_accum_steps = spec.training.grad_accum_steps;
  r.bound = dominant_bound(it);
  r.interference_s = it.interference.seconds();
  r.bucket_copy_s = it.bucket_copy.seconds();
  r.launch_s = it.launch.seconds();
  r.negotiation_s = it.negotiation.seconds();
  for (const BucketTiming& b : it.buckets) {
    r.bucket_bytes.push_back(b.bytes.n);
    r.buckets.push_back(BucketResult{b.bytes.n, std::string(b.algorithm->name()),
                                     b.protocol ? std::string(to_string(*b.protocol)) : "", b.channels,
                                     b.ready.seconds(), b.start.seconds(), b.end.seconds()});
  }
  r.price_usd_per_hour = inst.price_usd_per_hour;
  // Billed from start-up to the end of training, per instance.
  r.cost_usd = inst.price_usd_per_hour * nodes * r.total_time_s / 3600.0;
  if (auto o = spec.observed_minutes.find(nodes); o != spec.observed_minutes.end()) r.observed_minutes = o->second;
  if (auto o = spec.observed_step_s.find(nodes); o != spec.observed_step_s.end()) r.observed_step_s = o->second;
  if (auto o = spec.observed_samples_per_s.find(nodes); o != spec.observed_samples_per_s.end())
    r.observed_samples_per_s = o->second;
  r.warnings = framework_warnings(cfg.framework, inst);
  // [issue 11] will it fit (memory.hpp): a row that does not fit is reported, not costed.
  r.gather_s = gathers.busy.seconds();
  r.memory = memory_per_gpu(MemoryInput{&spec.model, cfg.framework, spec.training.precision, spec.training.optimizer,
                                        r.gpus, spec.training.batch_per_gpu, spec.training.bucket_cap,
                                        traits(cfg.framework).path == GradientPath::horovod_fusion ? horovod_fusion_threshold(fo) : Bytes{0},
                                        inst.gpu.memory, spec.training.amp, spec.training.activation_checkpointing,
                                        inst.nccl_buffsize});
  r.fits = r.memory.fits();
  return r;
}

}  // namespace ddpsim::sim
