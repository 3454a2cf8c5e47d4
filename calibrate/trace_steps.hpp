// One training step of a Kineto trace taken apart (issue 19): which operators ran the forward,
// which the backward, where DDP launched each bucket, what the optimizer and the input took.
//
// Rules (docs/scenario.md, "model.trace"):
//   - An operator is a top-level cpu_op of a thread (not inside another cpu_op; user annotations
//     do not count as operators). Its kernels are those whose launch (cuda_runtime/cuda_driver
//     event with the kernel's correlation id, or the ac2g flow of that id) lies inside it; NCCL
//     kernels (name "nccl...") are communication, every other kernel, memcpy and memset compute.
//   - An operator completes at the later of its CPU end and its last compute kernel's end; its
//     time is its completion minus the previous operator's (wall time on the critical path), its
//     GPU time the sum of its kernels.
//   - Backward operators are "autograd::engine::evaluate_function: ..." and what follows them on
//     their thread; the operators of the step's thread before the first of them are the forward.
//     A backward operator reached by a fwdbwd flow belongs to the forward operator the flow
//     starts in; others join the backward operator before them.
//   - Buckets: record_param_comms events of a reduction (allreduce, reduce_scatter, ...) in the
//     backward. After the one that launched the last bucket, the backward's remaining operators
//     are DDP's copies out of the buckets (their own time) and the wait for the reductions.
//   - Optimizer.zero_grad / Optimizer.step annotations are the optimizer; enumerate(DataLoader)
//     annotations the input wait.
#pragma once

#include <string>
#include <vector>

#include "calibrate/trace_events.hpp"

namespace ddpsim::calibrate {

struct StepLayer {
  std::string name;
  double forward_us = 0, backward_us = 0, forward_gpu_us = 0, backward_gpu_us = 0;
};

struct StepBucket {
  std::uint64_t elements = 0;
  std::string dtype, collective;
  std::size_t layer = 0;   // index in StepParts::layers (registration order)
  double kernel_us = 0;    // its NCCL kernel (0: none)
  std::size_t index = 0;   // traceEvents index of its record_param_comms
};

struct StepParts {
  std::string name;        // ProfilerStep#N, or "whole trace"
  double step_us = 0;      // the span
  std::vector<StepLayer> layers;    // registration order (reverse of backward)
  std::vector<StepBucket> buckets;  // launch order
  double optimizer_us = 0, optimizer_gpu_us = 0, input_us = 0, exposed_comm_us = 0;
  bool gpu = false;        // compute kernels were found
  bool linked = false;     // fwdbwd flows tied backward operators to forward ones
  std::size_t unsized = 0; // reductions without an element count (legacy profiler: c10d::allreduce_ only)
  std::size_t unattributed_kernels = 0;
};

// Every ProfilerStep#N of the trace (all of it as one step when there are none), in time order.
std::vector<StepParts> split_steps(const KinetoTrace& trace);

}  // namespace ddpsim::calibrate
