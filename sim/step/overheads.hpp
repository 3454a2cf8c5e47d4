// Per-step costs real jobs pay inside a node, as pure functions (issue 9, item 1). Units in the
// names: seconds as Time, bytes as Bytes, bandwidths as Bandwidth. Charged by the iteration
// (sim/step/iteration.cpp) with the knobs of OverheadSpec (scenario `overheads:`); the
// sources of every default are in docs/model.md, "Per-step overheads".
#pragma once

#include <optional>
#include <span>

#include "core/units.hpp"
#include "sim/step/compute.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

// The scenario's knobs (`overheads:` and `training.gradient_as_bucket_view`). Defaults: docs/model.md.
struct OverheadSpec {
  bool interference = true;             // compute slowed by collectives that overlap it
  double hbm_bytes_per_wire_byte = 2.0;  // all-reduce: reduce-scatter half 3, all-gather half 1
  int comm_ctas = 0;                     // SMs a collective takes; 0: the catalog's nccl_ctas, else its channels
  Time collective_launch = Time::from_us(5);  // per collective: DDP's comm hook + the CUDA launch
  std::optional<double> optimizer_bytes_per_param;  // default: optimizer_bytes_per_param()
  std::optional<Time> horovod_negotiation;          // per cycle; default: priced (framework_comm.hpp)
  // Backward launches cooperative kernels, which wait until no other kernel holds an SM, so no
  // compute runs beside a collective; default: channels_last batch norm (overhead_setup.cpp).
  std::optional<bool> cooperative_kernels;
  // A cost per optimizer step on rows with more than one GPU per node: the one-node loss as a
  // measured cost, not a mechanism (calibrate job's knob node_step_cost; docs/model.md).
  Time node_step_cost{0};
};

// Per-step overheads as the iteration charges them (sim/step/iteration.cpp, interference.cpp), made
// from OverheadSpec and the catalog by overhead_setup.cpp; all zero: none.
struct IterationOverheads {
  Bandwidth hbm{0};                    // the GPU's HBM; 0: no interference
  int sm_count = 0;                    // 0: unknown, no SM term
  int comm_ctas = 0;                   // SMs each collective occupies; 0: its channel count
  double hbm_bytes_per_wire_byte = 0;  // HBM traffic of a collective per byte it sends
  double wire_bytes_per_byte = 0;      // bytes a rank sends per byte reduced (ring: 2(n-1)/n)
  Time launch{0};                      // per collective, before it can start
  Bandwidth copy_hbm{0};               // DDP's bucket copies at this rate; 0: none (bucket views)
  // Horovod's fusion-buffer copies at this rate: a response of several tensors is copied into the
  // buffer and back out around its collective, on the collective's stream; 0: none.
  Bandwidth fusion_copy_hbm{0};
  // Bytes of HBM traffic per byte reduced of those passes (Horovod: 4, the copies in and out) and
  // whether a collective of one tensor pays them too (apex flattens even one; Horovod does not).
  double fusion_copy_bytes_per_byte = 4;
  bool fusion_copy_single = false;
  // Passes over the gradients outside the bucket copies: fp16 compression's casts (DDP's comm hooks,
  // Horovod's Compression.fp16) and DDP's in-place division of bucket views. HBM bytes per gradient
  // element before the collective (on the compute stream, as each gradient is produced) and after
  // it (before the optimizer), at this rate; 0: none.
  Bandwidth grad_pass_hbm{0};
  double grad_pass_in_bytes = 0;
  double grad_pass_out_bytes = 0;
  // Where the bytes after the collective are paid: false, once at the end of the step, after every
  // reduction (Horovod's Compression.fp16 decompresses in synchronize()); true, per bucket right
  // after its collective, overlapping the rest (DDP's comm hook decompresses in its future's
  // callback, on a stream of its own).
  bool grad_pass_out_per_bucket = false;
  bool serialized = false;             // cooperative kernels: no backward compute while a collective runs
};

// HBM bytes the optimizer step moves per parameter. fp32: SGD with momentum reads param, grad,
// momentum and writes param, momentum (5 x 4 B = 20); Adam reads param, grad, m, v and writes
// param, m, v (7 x 4 B = 28). Mixed precision (fp16/bf16 gradients, fp32 master weights, as
// memory.hpp's K): the gradient read is 2 B instead of 4 and the 16-bit model copy is written
// (+2 B), so the totals stay 20 and 28; tf32 keeps fp32 storage.
double optimizer_bytes_per_param(Optimizer opt, Precision p);

// Slowdown factor (>= 1) of compute that runs while a collective does. NCCL runs one CTA per
// channel on its own SM (NCCL env.rst, NCCL_MAX_NCHANNELS: fewer channels "reduces the number of
// CUDA blocks used for communication"), so a compute-bound kernel keeps (SMs - channels) of the
// SMs; and the collective's memory traffic (`comm_hbm` bytes/s: each wire byte is read from HBM
// once, and a reduction reads the local chunk and writes the sum, so <= 3 per wire byte) takes
// its share of HBM from a memory-bound kernel. The larger of the two bounds is the slowdown.
double overlap_slowdown(int channels, int sm_count, Bandwidth comm_hbm, Bandwidth hbm);

// A span of time in which compute progresses at `rate` (in [0, 1]) of its full speed: 1 - 1 /
// overlap_slowdown while a collective runs, 0 while a cooperative kernel waits for one.
struct SlowWindow {
  Time start{0}, end{0};
  double rate = 1.0;
};

// When compute that needs `work` of full-speed time, started at `begin`, is done: full speed
// outside the windows, `rate` inside them. Windows come in start order; where two overlap, the
// time after the first one's end counts at the second's rate (first order). sim/step/iteration.cpp
// uses it to find when a gradient exists on the slowed backward.
Time slowed_finish(Time begin, Time work, std::span<const SlowWindow> windows);

// HBM bytes a ring all-reduce's reduction moves per byte on the wire: read the local chunk, read
// the received chunk, write the sum (3); 1 for a copy (all-gather steps).
constexpr double kReduceHbmBytesPerWireByte = 3.0;

// DDP copies each gradient into its bucket before the all-reduce and back after (reducer.cpp,
// `mark_variable_ready_dense` / `finalize_bucket_dense`): 2 reads + 2 writes of the gradient
// bytes at HBM bandwidth. Zero with `gradient_as_bucket_view=True` (the gradients are views).
Time bucket_copy_time(Bytes gradients, Bandwidth hbm, bool gradient_as_bucket_view);

// Host launch cost of `collectives` NCCL calls at `per_launch` each (CPU side, before the GPU
// kernel can start; on the order of microseconds per launch).
Time launch_cost(int collectives, Time per_launch);

// SMDDP's (Herring's) server-side reduction on the CPU: a server receiving `bytes` from each of
// `workers` reads them all and writes the sum once, at the socket's memory bandwidth.
Time host_reduction_time(Bytes bytes, int workers, Bandwidth cpu_memory);

}  // namespace ddpsim::sim
