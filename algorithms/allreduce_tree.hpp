// NCCL's Tree all-reduce: a chain inside each node, a double binary tree across nodes (Sanders,
// Speck & Traff 2009, "Two-tree algorithms for full bandwidth broadcast, reduction and scan";
// NCCL 2.4 ncclGetBtree / ncclGetDtree). Each tree carries half the buffer; a node that is
// interior in one tree is a leaf in the other, so every node sends about S up and S down.
//   reduce: along each node's chain to its first GPU (G-1 hops, S per hop), then up both trees
//   (depth ceil(log2 N), S/2 per tree edge); broadcast: the same edges in reverse.
// NCCL pipelines chunks through the whole tree, so all edges are busy at once: one step holds all
// the traffic (merged per GPU pair) and the slowest edge sets the bandwidth time.
// Bytes per rank: up to 2S (chain and tree, both directions). Limitation: a node's first GPU
// sends to its tree parent and children through one NIC as separate flows (not shared here). Latency: 2(G-1) intra-node hops and
// 2 ceil(log2 N) network hops (tuning.cc's tree latency: 2((ppn-1) intra + log2(nNodes) inter)).
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class TreeAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "tree"; }
  std::string_view summary() const override { return "tree: intra-node chain + double binary tree across nodes, pipelined"; }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  HopCount latency_hops(const Request& req) const override;
  bool nccl_selectable() const override { return true; }
  bool coarse_merges_nic_traffic() const override { return true; }
  NcclFamily nccl_family() const override { return NcclFamily::tree; }
  // NVIDIA/nccl v2.4.2-1 (commit 1450d426, 2018-12-13) added trees (ncclPatternTreeUpDown);
  // NCCL 2.3 runs rings only.
  Version nccl_since(const Topology& /*topo*/) const override { return Version{2, 4, 2}; }
};

// Parent of `rank` in NCCL's binary tree over `n` ranks (ncclGetBtree), -1 for the root (rank 0).
int btree_parent(int n, int rank);
// Parent in the second tree (ncclGetDtree): shifted by one for odd n, mirrored for even n.
int dtree_parent(int n, int rank);

}  // namespace ddpsim::algo
