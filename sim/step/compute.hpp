// Per-layer GPU time from a roofline: a layer takes the longer of its FLOPs at `efficiency` x peak
// and its memory traffic at the HBM bandwidth, plus a fixed kernel-launch overhead; backward is
// `backward_flops_factor` x forward. Or, when a measured single-GPU step is given, the roofline
// only sets the proportions and the layer times are scaled so that forward + backward equals it.
#pragma once

#include <optional>
#include <vector>

#include "core/units.hpp"
#include "sim/step/model.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

struct ComputeParams {
  Precision precision = Precision::fp32;
  int batch_per_gpu = 32;
  double efficiency = 0.5;             // share of peak FLOPs real kernels reach (assumption, see docs/model.md)
  bool efficiency_stated = false;      // compute.efficiency given by the scenario (else the default above)
  Time kernel_overhead = Time::from_us(5);  // per layer and pass: launch + framework cost (docs/model.md)
  std::optional<double> measured_step_s;    // measured single-GPU forward+backward, no DDP
  double speedup = 1.0;                // what-if: divide compute time (e.g. a compiler)
  // Per-GPU forward + backward time x this on a row with more than one GPU per node: the one-node
  // loss, which no modelled mechanism explains (docs/model.md "What real steps pay"). 1 = none;
  // fitted by `calibrate job --fit node_slowdown`, sampled in the intervals (sim/study/model_error.cpp).
  double node_slowdown = 1.0;
  bool activation_checkpointing = false;  // training.activation_checkpointing (precision.hpp)
};

struct LayerTimes {
  std::vector<Time> forward;   // per layer, registration order
  std::vector<Time> backward;  // per layer, registration order
  Time forward_total{0};
  Time backward_total{0};
};

LayerTimes layer_times(const ModelSpec& model, const GpuSpec& gpu, const ComputeParams& params);

// Optimizer step: memory-bound sweep over the parameters on each GPU.
enum class Optimizer { sgd, adam };
Time optimizer_time(const ModelSpec& model, const GpuSpec& gpu, Optimizer opt);

}  // namespace ddpsim::sim
