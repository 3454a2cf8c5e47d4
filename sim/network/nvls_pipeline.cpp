#include "sim/network/nvls_pipeline.hpp"

#include <algorithm>

#include "sim/network/nccl_steps.hpp"

namespace ddpsim::sim {
namespace {

// NCCL_NVLS_NCHANNELS on SM90: 16 (src/transport/nvls.cc, v2.17.1-1 to v2.30; from v2.25
// NVLS_NCHANNELS_SM90). Only Hopper-class GPUs in the catalog have NVLink SHARP.
constexpr std::uint64_t kNvlsChannelsSm90 = 16;
// NCCL_NVLS_CHUNKSIZE's default, the largest NVLS chunk (src/transport/nvls.cc from v2.21; a
// literal 131072 in enqueue.cc before).
constexpr std::uint64_t kNvlsChunk = 128 * 1024;
// v2.18.1-1 raised computeCollChunkInfo's first threshold from 32 to 64 concurrent chunks.
constexpr Version kNcclNvlsChunk64{2, 18, 1};
// Stages a chunk passes in series: scatter, reduce (load-reduce and multicast store), gather.
constexpr std::uint64_t kStages = 3;

// NCCL's chunk for a single-node NVLS all-reduce (computeCollChunkInfo, src/enqueue.cc): one step
// of NCCL_BUFFSIZE, at most NCCL_NVLS_CHUNKSIZE, smaller while the message fills few rounds of
// the channels x heads concurrent chunks.
std::uint64_t nvls_chunk(std::uint64_t bytes, std::uint64_t concurrent, const InstanceSpec& inst)
{
  std::uint64_t chunk = std::min(nccl_simple_step_bytes(inst), kNvlsChunk);
  const std::uint64_t first = inst.nccl >= kNcclNvlsChunk64 ? 64 : 32;
  if (bytes < first * concurrent * chunk && chunk > 65536) chunk = 65536;
  if (bytes < 8 * concurrent * chunk && chunk > 32768) chunk = 32768;
  if (bytes < 2 * concurrent * chunk && chunk > 16384) chunk = 16384;
  return std::max<std::uint64_t>(chunk, 1);
}

}  // namespace

// Bytes one loop iteration moves: a chunk per channel and head.
std::uint64_t nvls_iteration_bytes(Bytes bytes, const Topology& topo)
{
  const std::uint64_t heads = static_cast<std::uint64_t>(std::max(1, topo.gpus_per_node()));
  const std::uint64_t concurrent = kNvlsChannelsSm90 * heads;
  return concurrent * nvls_chunk(bytes.n, concurrent, topo.instance());
}

std::uint64_t nvls_iterations(Bytes bytes, const Topology& topo)
{
  const std::uint64_t per_iteration = nvls_iteration_bytes(bytes, topo);
  return (bytes.n + per_iteration - 1) / per_iteration;
}

double nvls_pipelined_us(double bandwidth_us, Bytes bytes, const Topology& topo)
{
  if (bytes.n == 0 || bandwidth_us <= 0) return bandwidth_us;
  // Whole iterations first, the remainder last (the kernel's loop): the fill is the first
  // iteration's time through the other stages, so the price never falls as bytes grow.
  const double first = static_cast<double>(std::min(bytes.n, nvls_iteration_bytes(bytes, topo))) / bytes.as_double();
  return bandwidth_us * (1.0 + static_cast<double>(kStages - 1) * first);
}

}  // namespace ddpsim::sim
