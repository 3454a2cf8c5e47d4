#include "sim/step/memory.hpp"

#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "sim/step/precision.hpp"
#include "sim/step/sharded.hpp"

namespace ddpsim::sim {
namespace {

bool mixed(Precision p) { return p == Precision::fp16 || p == Precision::bf16; }

// Bytes of `elems` elements of `size` bytes split evenly over `ranks` (rounded up: the last
// shard is padded, as DeepSpeed and FSDP pad the flat buffer).
Bytes shard(double elems, int size, int ranks)
{
  return Bytes{static_cast<std::uint64_t>(std::ceil(elems / ranks)) * static_cast<std::uint64_t>(size)};
}

}  // namespace

Bytes MemoryBreakdown::total() const
{
  return parameters + gradients + optimizer + buckets + activations + workspace;
}

Bytes runtime_workspace(Bytes buffsize)
{
  // CUDA context: "~700+ MB" depending on the CUDA version and device (PyTorch forum,
  // discuss.pytorch.org/t/high-gpu-memory-overhead/81330; 723 MiB measured in /t/73021): 750 MiB.
  // NCCL: NCCL_BUFFSIZE (default 4 MiB) per channel and peer (NCCL environment variables docs),
  // 2 ring peers x up to 16 channels: 128 MiB at the default.
  return Bytes{750 * MiB + 2 * 16 * buffsize.n};
}

MemoryBreakdown memory_per_gpu(const MemoryInput& in)
{
  DDPSIM_CHECK(in.model != nullptr && in.ranks >= 1 && in.batch_per_gpu >= 1, "incomplete memory input");
  const ModelSpec& m = *in.model;
  const double p = static_cast<double>(m.parameter_count());
  const double trained = static_cast<double>(m.trainable_count());  // gradients and optimizer state
  const int act = mixed(in.precision) ? 2 : 4;           // activations
  const int elem = in.amp ? 4 : act;                     // parameters and gradients (precision.hpp)
  const ShardStage stage = shard_stage(in.framework);
  const int opt_ranks = stage >= ShardStage::optimizer ? in.ranks : 1;
  const int grad_ranks = stage >= ShardStage::gradients ? in.ranks : 1;
  const int param_ranks = stage >= ShardStage::parameters ? in.ranks : 1;

  MemoryBreakdown r;
  r.capacity = in.capacity;
  r.parameters = shard(p, elem, param_ranks);
  if (in.amp && mixed(in.precision)) r.parameters += shard(p, 2, param_ranks);  // autocast's 16-bit weight copies
  r.gradients = shard(trained, elem, grad_ranks);
  // x 4 B each; a separate fp32 master copy only when the model itself is 16-bit (not under AMP).
  const int states = (in.optimizer == Optimizer::adam ? 2 : 1) + (mixed(in.precision) && !in.amp ? 1 : 0);
  r.optimizer = shard(trained * states, 4, opt_ranks);

  switch (traits(in.framework).path) {
    case GradientPath::ddp_buckets:
      r.buckets = Bytes{static_cast<std::uint64_t>(trained) * static_cast<std::uint64_t>(elem)};  // flat bucket copy
      break;
    case GradientPath::horovod_fusion: r.buckets = in.fusion_buffer; break;
    case GradientPath::sharded: {
      if (stage != ShardStage::parameters) {  // ZeRO-1, ZeRO-2: the reduce-scatter buckets
        r.buckets = Bytes{2 * in.bucket_cap.n};
        break;
      }
      std::uint64_t largest = 0;  // ZeRO-3, FSDP: and the largest layer gathered
      for (const Layer& l : m.layers) {
        std::uint64_t n = 0;
        for (const Tensor& t : l.params) n += t.numel;
        largest = std::max(largest, n);
      }
      r.buckets = Bytes{2 * in.bucket_cap.n + 2 * largest * static_cast<std::uint64_t>(elem)};
      break;
    }
  }

  r.activations = Bytes{static_cast<std::uint64_t>(std::ceil(activation_bytes(m, act, in.batch_per_gpu, in.activation_checkpointing, in.amp)))};
  r.workspace = runtime_workspace(in.nccl_buffsize);
  return r;
}

std::string memory_need(const MemoryBreakdown& m)
{
  auto gib = [](Bytes b) {
    const double g = static_cast<double>(b.n) / static_cast<double>(GiB);
    char buf[32];
    if (std::fabs(g - std::round(g)) < 1e-9) std::snprintf(buf, sizeof buf, "%.0f GiB", g);
    else std::snprintf(buf, sizeof buf, "%.1f GiB", g);
    return std::string(buf);
  };
  return "needs " + gib(m.total()) + " of " + gib(m.capacity);
}

}  // namespace ddpsim::sim
