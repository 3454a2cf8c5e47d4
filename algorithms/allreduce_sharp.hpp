// In-network reduction all-reduce (NCCL's CollNet Direct over InfiniBand SHARP: Graham et al.,
// "Scalable Hierarchical Aggregation Protocol (SHArP)", COMHPC 2016; NVIDIA/nccl-rdma-sharp-plugins):
//   1. inside each node, a ring reduce-scatter over its G GPUs (G-1 steps of S/G);
//   2. each GPU's shard goes up to the fabric's switches, which reduce it across the N nodes and
//      send the sum back down: every NIC sends its shard once and receives it once, whatever N;
//   3. inside each node, a ring all-gather (G-1 steps of S/G).
// Bytes per NIC across the network: S/G per GPU it serves, each way (a ring needs 2(N-1)/N x that).
// Latency: 2(G-1) intra-node hops + 2 network hops (up to the aggregation switch and back).
// Available only on fabrics whose switches reduce (cluster.fabric.in_network_reduction).
// The switch's reduction is drawn as one pass around the nodes (node m's GPU sends its shard to
// node m+1's): each NIC then sends and receives the shard exactly once, as through the switch;
// on a single switch the links crossed are the same, on leaf-spine/rail fabrics the drawing
// crosses the spine as a ring neighbour would, an approximation of the aggregation tree.
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class SharpAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "sharp"; }
  std::string_view summary() const override
  {
    return "sharp (CollNet): intra-node reduce-scatter, switch-side reduction of the shards, intra-node all-gather";
  }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  bool available(const Topology& topo) const override;
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  HopCount latency_hops(const Request& req) const override;
  NcclFamily nccl_family() const override { return NcclFamily::tree; }
  // NCCL's CollNet is one of its own algorithms: auto picks it where the fabric offers it.
  bool nccl_selectable() const override { return true; }
  // NVIDIA/nccl v2.6.4-1 (commit b221128e, 2020-01-16): "Add support for network collectives"
  // (CollNet, SHARP). Later releases reshaped it (chain and direct forms, 2.14.3); priced alike.
  Version nccl_since(const Topology& /*topo*/) const override { return Version{2, 6, 4}; }
};

}  // namespace ddpsim::algo
