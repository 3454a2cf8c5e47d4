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

// Issue 18, what real steps pay: GPUs of one SKU do not run at one speed. Sinha et al., "Not All
// GPUs Are Created Equal: Characterizing Variability in Large-Scale, Accelerator-Rich Systems"
// (SC22; arXiv 2208.11035v3, abstract): over more than 90% of the GPUs of Oak Ridge's Summit,
// Sandia's Vortex, TACC's Frontera and Longhorn and Livermore's Corona (NVIDIA V100 and AMD MI60),
// one application shows 8% average performance variation (max 22%) across GPUs of one SKU, from
// manufacturing variability and power management, with outliers up to 1.5x slower than the
// median GPU (the SC22 program's abstract, on four clusters, said 32%; the later v3 is used).
// Read as the range between a box plot's whiskers (no outliers: 4 interquartile ranges = 5.4
// sigma of a normal), the spread of ln(compute time) is sigma = 0.08 / 5.4 = 0.015 (docs/model.md
// "The slowest GPU sets the pace").
inline constexpr double kGpuSpreadSigma = 0.015;

// A synchronous data-parallel step waits at each gradient reduction for every GPU, so it runs at
// the slowest of its `gpus`, each drawn from exp(N(0, sigma^2)): the expected factor on compute
// time is exp(sigma x E[max of gpus standard normals]), the order statistic by Blom's
// approximation (Phi^-1((n - 0.375) / (n + 0.25)); Blom 1958, "Statistical Estimates and
// Transformed Beta-Variables"). 1 for one GPU or sigma 0; grows as sqrt(2 ln n).
double slowest_gpu_factor(int gpus, double sigma);

struct ComputeParams {
  Precision precision = Precision::fp32;
  bool amp = false;                    // training.precision amp-*: autocast (precision is its 16-bit type)
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
  // Per-GPU forward + backward time x this per doubling of the nodes beyond one (x s^log2(nodes)):
  // the loss across nodes that no modelled mechanism explains, measured on public multi-node rows
  // (docs/validation.md "The loss across nodes"). 1 = none; fitted by `calibrate job --fit
  // doubling_slowdown`, sampled in the intervals (sim/study/model_error.cpp).
  double doubling_slowdown = 1.0;
  // Spread of GPU speed across the GPUs of a job (compute.gpu_spread): a lognormal sigma of each
  // GPU's compute time; a synchronous step runs at the slowest of its GPUs (slowest_gpu_factor).
  double gpu_spread = kGpuSpreadSigma;
  bool activation_checkpointing = false;  // training.activation_checkpointing (precision.hpp)
  bool channels_last = false;  // training.memory_format: channels_last (else NCHW: Layer::nchw_transposes_*)
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
