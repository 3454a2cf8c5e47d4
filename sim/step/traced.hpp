// A model measured by a profiler trace (issue 19): what one rank of a real job spent per step,
// layer by layer, and the DDP buckets it really formed. calibrate/trace_model.hpp turns a PyTorch
// profiler (Kineto) trace into it; nothing here reads files.
//
// Layers are the trace's top-level operators, in registration order = the reverse of the order
// their backward ran (autograd runs backward in reverse). A layer's time is wall time on the
// rank's critical path: from the previous operator's completion to its own (the later of its CPU
// end and its last kernel's end), so launch gaps and host work are kept; `*_gpu` is the part of it
// that GPU kernels took, the only part a faster GPU shortens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "sim/step/model.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

struct TracedLayer {
  std::string name;
  Time forward{0}, backward{0};          // wall time on the critical path
  Time forward_gpu{0}, backward_gpu{0};  // of which GPU kernels
};

struct TracedBucket {
  std::uint64_t elements = 0;  // record_param_comms "In msg nelems"
  int element_bytes = 4;       // from its dtype
  std::string dtype;           // "Float", "Half", "BFloat16", ...
  std::string collective;      // "allreduce", ...
  std::size_t layer = 0;       // launched in this layer's backward (index in `layers`)
  Time kernel{0};              // the NCCL kernel's measured time (0: none found, e.g. a CPU trace)
};

struct TracedModel {
  std::string source;                // the trace file, for notes
  std::vector<TracedLayer> layers;   // registration order
  std::vector<TracedBucket> buckets; // launch order
  Time optimizer{0}, optimizer_gpu{0};  // Optimizer.zero_grad + step, and the bucket copies after the last all-reduce
  Time input_wait{0};                // DataLoader annotations inside the step
  Time other{0};                     // the rest of the measured step (not comm): host work between phases
  Time exposed_comm{0};              // measured wait for the last reductions after backward
  Time step{0};                      // median of the ProfilerStep spans
  std::size_t steps = 0;             // ProfilerSteps seen
  int ranks = 1;                     // distributedInfo.world_size
  std::string device;                // deviceProperties name, "" for a CPU trace
  std::optional<GpuSpec> gpu;        // the catalog GPU it matched (none: no GPU scaling possible)
  bool cpu_only = false;             // no GPU kernels: times are the operators' CPU durations
  std::vector<std::string> notes;    // what the import assumed, for the report
};

// Kernel time on `target` relative to the traced GPU: the geometric mean of the peak-FLOP/s ratio
// (at `p`) and the HBM-bandwidth ratio, with both ratios as the interval. 1 (and [1, 1]) when the
// traced GPU is unknown or the same model.
struct GpuRatio {
  double point = 1, low = 1, high = 1;
  double flops = 1, hbm = 1;
  bool scaled = false;
};
GpuRatio gpu_ratio(const TracedModel& t, const GpuSpec& target, Precision p);

// The model the simulator runs: the traced layers (no FLOPs: their times are measured), each
// traced bucket one tensor of the layer whose backward launched it, so that ddp_buckets gives
// back the traced buckets; `traced` points at `t`.
ModelSpec traced_model_spec(std::shared_ptr<const TracedModel> t, const std::string& name);

// The scale on the total forward + backward time that `kernel_ratio` on the kernel parts gives.
double traced_compute_factor(const TracedModel& t, double kernel_ratio);

}  // namespace ddpsim::sim
