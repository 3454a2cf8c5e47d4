// Will it fit: the peak memory one GPU needs for a data-parallel training step, against the
// GPU's memory (catalog). docs/model.md ("Memory") has the formulas and their sources.
//   parameters  P x (2 under fp16/bf16, else 4) bytes; AMP 4 + 2 (autocast's copies; precision.hpp)
//   gradients   P x the same element size
//   optimizer   fp32 master weights under mixed precision (4 P) + states: Adam 2 x 4 P (m, v),
//               SGD with momentum 1 x 4 P (ZeRO paper, arXiv 1910.02054, section 3.1: K = 12
//               for mixed-precision Adam)
//   buckets     DDP's flat gradient buckets (a copy of every gradient unless
//               gradient_as_bucket_view; PyTorch DDP docstring), Horovod's fusion buffer, the
//               sharded frameworks' reduce-scatter/all-gather buckets (2 x bucket cap) and, for
//               zero-3/fsdp, the gathered parameters of the current and the prefetched layer
//   activations per micro-batch: sum over layers of saved elements x batch x element size
//               (checkpointing and flash attention: precision.hpp)
//               + dropout masks (model.hpp; transformers per Korthikanti et al., arXiv 2205.05198)
//   workspace   CUDA context + NCCL buffers (see memory.cpp)
// Sharding (sharded.hpp) divides optimizer state, then gradients, then parameters by the ranks.
#pragma once

#include <string>
#include <type_traits>

#include "core/units.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/frameworks.hpp"
#include "sim/step/model.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

struct MemoryInput {
  const ModelSpec* model = nullptr;
  Framework framework = Framework::pytorch_ddp;
  Precision precision = Precision::fp32;
  Optimizer optimizer = Optimizer::sgd;
  int ranks = 1;            // data-parallel ranks the state is sharded over
  int batch_per_gpu = 32;   // samples per micro-batch
  Bytes bucket_cap{25 * MiB};
  Bytes fusion_buffer{0};   // Horovod's fusion threshold (0 for the others)
  Bytes capacity;           // the GPU's memory
  bool amp = false;         // precision amp-fp16/amp-bf16 (precision.hpp)
  bool activation_checkpointing = false;
  Bytes nccl_buffsize{kNcclDefaultBuffsize};  // NCCL_BUFFSIZE (software.nccl_buffsize)
};

struct MemoryBreakdown {
  Bytes parameters, gradients, optimizer, buckets, activations, workspace;
  Bytes capacity;
  Bytes total() const;
  bool fits() const { return total().n <= capacity.n; }
};

// For the child-process codec (sim/study/sweep.cpp).
template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, MemoryBreakdown> void fields(T& m, F& f)
{
  f(m.parameters.n), f(m.gradients.n), f(m.optimizer.n), f(m.buckets.n), f(m.activations.n), f(m.workspace.n),
      f(m.capacity.n);
}

MemoryBreakdown memory_per_gpu(const MemoryInput& in);

// "needs 23.3 GiB of 16 GiB" with one decimal; "does not fit: " is added by callers.
std::string memory_need(const MemoryBreakdown& m);

// The CUDA context and NCCL's Simple buffers per GPU for NCCL_BUFFSIZE `buffsize` (memory.cpp has the sources).
Bytes runtime_workspace(Bytes buffsize = Bytes{kNcclDefaultBuffsize});

}  // namespace ddpsim::sim
