// The unknowns `ddpsim calibrate job` can fit, and the ONE place each one's effect on a
// ScenarioSpec is written (apply). A knob's value is physical (seconds, a fraction, a factor);
// the fit works on ln(value), so every value stays positive.
//
//   compute_scale       [1]  multiplies the modelled forward + backward time (via compute.speedup)
//   compute_efficiency  [1]  compute.efficiency, the share of peak FLOPs; > 1 is impossible
//   measured_step       [s]  compute.measured_step_s, one GPU's forward + backward
//   network_efficiency  [1]  the profile's network-scope efficiency (achieved / catalog line rate); > 1 impossible
//   network_latency     [s]  the NIC's one-way latency (catalog [assume] value)
//   nvlink_latency      [s]  one NVLink hop (catalog [assume] value)
//   pcie_latency        [s]  one PCIe hop (catalog [assume] value)
//   step_overhead       [s]  a fixed cost per optimizer step, any framework (ScenarioSpec::extra_step_overhead)
//   loader_cpu          [s]  data.per_sample_cpu_s, CPU time to load one sample (needs data.workers)
//   model_scale         [1]  parameter count scale of the model: params and FLOPs x s, activations x sqrt(s)
//                            (a dense layer's widths x k gives params k^2, activations k)
//   node_slowdown       [1]  each GPU's forward + backward time x this on rows with more than one GPU
//                            per node (compute.node_slowdown): the one-node loss, a measured effect
//                            without a modelled mechanism (docs/model.md "What real steps pay")
//   doubling_slowdown   [1]  each GPU's forward + backward time x this per doubling of the nodes
//                            beyond one (x s^log2(nodes); compute.doubling_slowdown): the loss across
//                            nodes, measured on public rows, without a modelled mechanism
//   node_step_cost      [s]  a fixed cost per optimizer step on rows with more than one GPU per node
//                            (overheads.node_step_cost): the one-node loss as a cost per step, the
//                            form in which the public ResNet-50 nodes' loss carries across precisions
//                            (docs/validation.md "The one-node loss across precisions")
// There is no interference-factor knob: the simulator has no such parameter yet.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

// What a job profile was fitted on, to decide what transfers to another scenario.
struct JobContext {
  std::string instance;   // without "ml."
  std::string gpu;
  std::string fabric;     // single_switch, leaf_spine, rail
  std::string framework;  // training.framework
  std::string model;      // name
  std::uint64_t parameters = 0;
  int batch_per_gpu = 0;
  std::string precision;
  std::string kernels = "fused";  // model.kernels: what the modelled compute counts
  // What the job ran, beyond the above, that changes its step (a code change, not a modelling one):
  std::string attention = "eager";           // model.attention (flash: no score matrices, recomputed)
  std::string memory_format = "contiguous";  // training.memory_format
};

JobContext context_of(const ScenarioSpec& spec);

struct Knob {
  std::string name;
  std::string unit;      // "s" or "" (a ratio)
  double lower = 0;      // physically possible values: lower < v <= upper (exclusive lower)
  double upper = 0;
  std::string meaning;   // one line, for --help and the job profile
};

const std::vector<Knob>& knobs();
// Throws UserError("--fit: unknown knob ...") with a suggestion.
const Knob& knob(const std::string& name);

// The knob's value in `spec` as written (the fit's start). Throws UserError when the knob does not
// apply to the scenario (e.g. loader_cpu without data.workers).
double start_value(const std::string& name, const ScenarioSpec& spec);
// Sets the knob to `value` in `spec`. The only place a knob touches a spec.
void apply(const std::string& name, ScenarioSpec& spec, double value);
// "" when a knob fitted in `fitted` applies to `target`; otherwise why not (one line).
std::string why_not_transferable(const std::string& name, const JobContext& fitted, const JobContext& target);

// What `ddpsim calibrate job` fitted, as a scenario's `calibration:` carries it (read and written
// as YAML by app/input/job_profile_io; applied by sim/study/twin.hpp).
struct JobProfile {
  std::string file;
  JobContext context;
  std::vector<std::string> knobs;
  std::vector<double> values;  // physical units (the knobs above)
  Eigen::MatrixXd cov_log;     // of ln(values)
  double sigma = 0;
  double model_error_ln_sd = 0;  // leave-one-out model error (0: the fit had none to measure)
  // Beyond `extrapolation_beyond_nodes`, the model error grows by this sd in ln per doubling of
  // nodes, as a drift: sd s d after d doublings (calibrate/job_extrapolation.hpp); 0: not measured.
  double extrapolation_ln_sd = 0;
  int extrapolation_beyond_nodes = 0;
  // Issue 18 item 4: the best plausible fit without the knobs the fit flagged as implausible
  // (`alternative:`); the intervals span it (sim/study/uncertainty.hpp). Empty `without`: none.
  std::vector<std::string> alternative_without, alternative_knobs;
  std::vector<double> alternative_values;
  // Issue 20: the observed rows of the fit, from provenance.rows: nodes, framework, "fitted" or "held back".
  struct Role {
    int nodes = 0;
    std::string framework, role;
  };
  std::vector<Role> roles;
};

}  // namespace ddpsim::sim
