#include "sim/network/tree_pipeline.hpp"

#include <algorithm>

#include "sim/network/nccl_steps.hpp"

namespace ddpsim::sim {
namespace {

// The first release whose Simple tree keeps the whole step as its chunk: v2.20.3-1 dropped
// computeCollChunkInfo's loop that halved it for small messages (src/enqueue.cc, v2.19.4-1 and
// older back to v2.4.8-1: while bytes / (channels x chunk) < depth x 8 and chunk > 128 KiB,
// < depth x 4 and > 64 KiB, < depth and > 32 KiB; depth = ranks per node - 1 + log2 nodes,
// src/graph/connect.cc).
constexpr Version kNcclWholeStepTreeChunk{2, 20, 3};

// The chunk NCCL's Simple tree forwards: one step of NCCL_BUFFSIZE, halved for small messages
// before 2.20.3 (above).
double simple_tree_chunk(Bytes bytes, int channels, const Topology& topo)
{
  const InstanceSpec& inst = topo.instance();
  double chunk = static_cast<double>(nccl_simple_step_bytes(inst));
  if (inst.nccl >= kNcclWholeStepTreeChunk) return chunk;
  int log2_nodes = 0;
  while ((2 << log2_nodes) <= topo.nodes()) ++log2_nodes;
  const double depth = topo.gpus_per_node() - 1 + log2_nodes;
  const double per_chunk = bytes.as_double() / std::max(1, channels);
  while (per_chunk / chunk < depth * 8 && chunk > 131072) chunk /= 2;
  while (per_chunk / chunk < depth * 4 && chunk > 65536) chunk /= 2;
  while (per_chunk / chunk < depth && chunk > 32768) chunk /= 2;
  return chunk;
}

}  // namespace

// The fill of a Simple tree over `hops`, where `raw_us` is the bandwidth term without
// treeCorrectionFactor: each channel's share of `bytes` in chunks; the slowest hop takes its
// share of raw_us per chunk, a network hop at most a channel's share of the node's NICs and an
// NVLink hop at most a channel's share of the GPU's link (one brick per channel on a mesh).
double simple_tree_fill_us(double raw_us, Bytes bytes, int channels, algo::HopCount hops, const Topology& topo)
{
  if (bytes.n == 0 || raw_us <= 0) return 0;
  const InstanceSpec& inst = topo.instance();
  const double ch = std::max(1, channels);
  const double per_channel = bytes.as_double() / ch;
  // Whole chunks first, the remainder last (runTreeUpDown's loop): the fill is the first chunk's.
  const double chunk = std::min(per_channel, simple_tree_chunk(bytes, channels, topo));
  const double slowest = raw_us * chunk / per_channel;
  const double net = inst.nic.count * inst.nic.bandwidth.bytes_per_s * inst.efficiency.nic / ch;
  double intra = 0;  // one channel's rate between two GPUs of a node
  switch (inst.intra) {
    case IntraNodeFabric::nvswitch: intra = inst.nvswitch_per_gpu.bytes_per_s * inst.efficiency.nvlink / ch; break;
    case IntraNodeFabric::nvlink_mesh: intra = inst.nvlink_per_link.bytes_per_s * inst.efficiency.nvlink; break;
    case IntraNodeFabric::pcie_only: intra = inst.pcie.bytes_per_s * inst.efficiency.pcie / ch; break;
  }
  const auto hop_us = [&](double rate) { return rate > 0 ? std::min(slowest, chunk / rate * 1e6) : slowest; };
  return std::max(0.0, hops.inter * hop_us(net) + hops.intra * hop_us(intra) - slowest);
}

}  // namespace ddpsim::sim
