// Hierarchical two-level all-reduce (Horovod's hierarchical allreduce; the shape of NCCL's
// NVLSTree / CollNet on multi-node jobs; Jia et al. 2018, "Highly scalable DL training system
// with mixed-precision", 2D all-reduce):
//   1. inside each node, a ring reduce-scatter over its G GPUs (G-1 steps of S/G);
//   2. across nodes, the GPUs at the same local position all-reduce the shard they own
//      (S/G bytes) with a ring over the N nodes (2(N-1) steps of S/(G N)); G such rings run at
//      once, each GPU through its own NIC;
//   3. inside each node, a ring all-gather (G-1 steps of S/G).
// Bytes per rank: 2(G-1)/G x S inside the node, 2(N-1)/N x S/G across the network.
// Latency: 2(G-1) intra-node hops + 2(N-1) network hops.
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class HierarchicalAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "hierarchical"; }
  std::string_view summary() const override
  {
    return "hierarchical: intra-node reduce-scatter, inter-node all-reduce of the shards, intra-node all-gather";
  }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  NcclFamily nccl_family() const override { return NcclFamily::tree; }
};

}  // namespace ddpsim::algo
