#include "sim/study/knobs.hpp"

#include <cmath>

#include "core/error.hpp"
#include "sim/step/compute.hpp"
#include "sim/study/model_error.hpp"

namespace ddpsim::sim {
namespace {

std::string bare(std::string name) { return name.rfind("ml.", 0) == 0 ? name.substr(3) : name; }

double modelled_step(const ScenarioSpec& spec)
{
  ComputeParams cp = step_compute(spec);
  const LayerTimes t = layer_times(spec.model, spec.cluster.instance.gpu, cp);
  return (t.forward_total + t.backward_total).seconds();
}

}  // namespace

JobContext context_of(const ScenarioSpec& s)
{
  return JobContext{bare(s.cluster.instance.name),
                    s.cluster.instance.gpu.name,
                    std::string(to_string(s.cluster.fabric.kind)),
                    std::string(to_string(s.training.framework)),
                    s.model.name,
                    s.model.parameter_count(),
                    s.training.batch_per_gpu,
                    (s.training.amp ? "amp-" : "") + std::string(to_string(s.training.precision)),
                    s.model.eager_kernels ? "eager" : "fused",
                    s.model.flash_attention ? "flash" : "eager",
                    s.training.channels_last ? "channels_last" : "contiguous"};
}

const std::vector<Knob>& knobs()
{
  static const std::vector<Knob> all{
      {"compute_scale", "", 0, 1e6, "multiplies the modelled forward + backward time"},
      {"compute_efficiency", "", 0, 1, "share of the GPU's peak FLOPs the kernels reach (compute.efficiency)"},
      {"measured_step", "s", 0, 1e6, "one GPU's forward + backward time (compute.measured_step_s)"},
      {"network_efficiency", "", 0, 1, "achieved / catalog network (NIC, PCIe) bandwidth"},
      {"network_scale", "", 0, 1e3, "every collective across nodes takes this x its price (latency and bandwidth alike)"},
      {"network_latency", "s", 0, 1, "one-way NIC-to-NIC latency"},
      {"nvlink_latency", "s", 0, 1, "one NVLink hop's latency"},
      {"pcie_latency", "s", 0, 1, "one PCIe hop's latency"},
      {"step_overhead", "s", 0, 1e6, "fixed cost per optimizer step (framework, logging, synchronisation)"},
      {"loader_cpu", "s", 0, 1e4, "CPU seconds to load and preprocess one sample (data.per_sample_cpu_s)"},
      {"model_scale", "", 0, 1e6, "scale of the model's parameter count (params, FLOPs x s; activations x sqrt(s))"},
      {"node_slowdown", "", 0, 1e3, "each GPU's forward + backward time x this when its node runs more than one GPU"},
      {"doubling_slowdown", "", 0, 1e3, "each GPU's forward + backward time x this per doubling of the nodes beyond one"},
      {"node_step_cost", "s", 0, 1e6, "a fixed cost per optimizer step when the node runs more than one GPU"},
  };
  return all;
}

const Knob& knob(const std::string& name)
{
  std::string list;
  for (const Knob& k : knobs()) {
    if (k.name == name) return k;
    list += (list.empty() ? "" : ", ") + k.name;
  }
  throw UserError("--fit: unknown knob \"" + name + "\" (knobs: " + list + ")");
}

double start_value(const std::string& name, const ScenarioSpec& s)
{
  if (name == "compute_scale" || name == "model_scale") return 1.0;
  if (name == "network_efficiency") return s.communication.profile.network.efficiency;
  if (name == "network_scale") return s.communication.profile.network.time_scale;
  if (name == "compute_efficiency") return s.compute.efficiency;
  if (name == "node_slowdown") return s.compute.node_slowdown;
  if (name == "doubling_slowdown") return s.compute.doubling_slowdown;
  if (name == "measured_step") return s.compute.measured_step_s.value_or(modelled_step(s));
  if (name == "network_latency") return s.cluster.instance.nic.latency.seconds();
  if (name == "nvlink_latency") return s.cluster.instance.nvlink_latency.seconds();
  if (name == "pcie_latency") return s.cluster.instance.pcie_latency.seconds();
  // No overhead written: start from 1 ms (ln-space needs a positive start; the fit moves it).
  if (name == "step_overhead") return s.extra_step_overhead.ps > 0 ? s.extra_step_overhead.seconds() : 1e-3;
  if (name == "node_step_cost") return s.overheads.node_step_cost.ps > 0 ? s.overheads.node_step_cost.seconds() : 1e-3;
  if (name == "loader_cpu") {
    if (s.data.workers <= 0) throw UserError("--fit loader_cpu: the scenario does not model the loader (set data.workers)");
    return s.data.per_sample_cpu_s > 0 ? s.data.per_sample_cpu_s : 1e-4;
  }
  knob(name);  // throws for an unknown name
  return 1.0;
}

void apply(const std::string& name, ScenarioSpec& s, double v)
{
  DDPSIM_CHECK(v > 0 && std::isfinite(v), "knob " + name + " applied with a non-positive value");
  if (name == "compute_scale") {
    s.compute.speedup /= v;
  } else if (name == "compute_efficiency") {
    // Beyond 1 the roofline refuses; extrapolate through speedup so the fit can reach and report it.
    s.compute.efficiency = std::min(v, 1.0);
    if (v > 1) s.compute.speedup *= v;
  } else if (name == "measured_step") {
    s.compute.measured_step_s = v;
  } else if (name == "network_efficiency") {
    // The profile's network scope, which CollectiveModel applies to every multi-node collective.
    s.communication.profile.network.efficiency = v;
    s.communication.profile.network.fitted = true;
  } else if (name == "network_scale") {
    s.communication.profile.network.time_scale = v;
  } else if (name == "network_drift") {  // an interval's knob only, not fitted (sim/study/model_error.hpp)
    s.communication.profile.network.drift = v;
    s.communication.profile.network.drift_from_nodes = price_error_nodes(s.communication.profile);
  } else if (name == "network_scale_below") {  // an interval's knob only (sim/study/model_error.hpp)
    s.communication.profile.network.below_scale = v;
    s.communication.profile.network.below_bytes = unfitted_latency_below(s.communication.profile);
  } else if (name == "network_latency") {
    s.cluster.instance.nic.latency = Time::from_seconds(v);
  } else if (name == "nvlink_latency") {
    s.cluster.instance.nvlink_latency = Time::from_seconds(v);
  } else if (name == "pcie_latency") {
    s.cluster.instance.pcie_latency = Time::from_seconds(v);
  } else if (name == "step_overhead") {
    s.extra_step_overhead = Time::from_seconds(v);
  } else if (name == "loader_cpu") {
    s.data.per_sample_cpu_s = v;
  } else if (name == "node_slowdown") {
    s.compute.node_slowdown = v;
  } else if (name == "doubling_slowdown") {
    s.compute.doubling_slowdown = v;
  } else if (name == "node_step_cost") {
    s.overheads.node_step_cost = Time::from_seconds(v);
  } else if (name == "model_scale") {
    for (Layer& l : s.model.layers) {
      for (Tensor& t : l.params) t.numel = static_cast<std::uint64_t>(std::llround(static_cast<double>(t.numel) * v));
      l.fwd_flops_per_sample *= v;
      l.activation_elems_per_sample *= std::sqrt(v);
    }
  } else {
    knob(name);
  }
}

std::string why_not_transferable(const std::string& name, const JobContext& f, const JobContext& t)
{
  const bool same_model = f.model == t.model && f.parameters == t.parameters;
  if (name == "compute_scale" || name == "compute_efficiency" || name == "measured_step") {
    if (f.gpu != t.gpu) return "fitted on " + f.gpu + " GPUs, the scenario has " + t.gpu;
    if (!same_model) return "fitted on model " + f.model + ", the scenario runs " + t.model;
    if (f.batch_per_gpu != t.batch_per_gpu || f.precision != t.precision)
      return "fitted at batch " + std::to_string(f.batch_per_gpu) + " " + f.precision + ", the scenario uses batch " +
             std::to_string(t.batch_per_gpu) + " " + t.precision;
    // Another attention kernel or memory format is another job: its step, measured or modelled,
    // is not this one's.
    if (f.attention != t.attention)
      return "fitted with model.attention: " + f.attention + ", the scenario states " + t.attention;
    if (f.memory_format != t.memory_format)
      return "fitted with training.memory_format: " + f.memory_format + ", the scenario states " + t.memory_format;
    // A ratio to the modelled compute: the eager count's longer compute is not the fused one's
    // (a measured step is a measurement of the job, whatever the count).
    if (name != "measured_step" && f.kernels != t.kernels)
      return "fitted with model.kernels: " + f.kernels + ", the scenario states " + t.kernels;
    return "";
  }
  if (name == "network_efficiency" || name == "network_scale" || name == "network_latency" || name == "nvlink_latency" ||
      name == "pcie_latency") {
    if (f.instance != t.instance) return "fitted on " + f.instance + "'s network, the scenario uses " + t.instance;
    if (f.fabric != t.fabric) return "fitted on a " + f.fabric + " fabric, the scenario has " + t.fabric;
    return "";
  }
  if (name == "step_overhead")
    return f.framework == t.framework ? "" : "fitted with " + f.framework + ", the scenario runs " + t.framework;
  if (name == "loader_cpu" || name == "node_slowdown") {
    if (f.instance != t.instance)
      return "fitted on " + f.instance + (name == "loader_cpu" ? "'s CPUs" : " nodes") + ", the scenario uses " + t.instance;
    return same_model ? "" : "fitted on model " + f.model + ", the scenario runs " + t.model;
  }
  if (name == "doubling_slowdown" || name == "node_step_cost") {  // what a framework loses, on one kind of node
    if (f.instance != t.instance) return "fitted on " + f.instance + " nodes, the scenario uses " + t.instance;
    if (f.framework != t.framework) return "fitted with " + f.framework + ", the scenario runs " + t.framework;
    return same_model ? "" : "fitted on model " + f.model + ", the scenario runs " + t.model;
  }
  if (name == "model_scale") return same_model ? "" : "fitted on model " + f.model + ", the scenario runs " + t.model;
  return "unknown knob";
}

}  // namespace ddpsim::sim
