// NVLS / NVLSTree (NCCL 2.17+, NVLink SHARP on third-generation NVSwitch: H100/H200 nodes).
// The switch reduces: in the reduce step every GPU pushes each of its G slices to the switch
// (multimem.ld_reduce), which sums slice j for its owner j; in the multicast step every owner
// pushes its reduced slice once and the switch copies it to all G GPUs (multimem.st). Per GPU
// port, an all-reduce moves S up and S down (against 2(G-1)/G x S each way for the ring), so the
// bound is S / port bandwidth: busbw up to 2(G-1)/G x port rate (FACTS.md: ~480 GB/s busbw on
// 8 H100 with NVLS, nccl-tests #212).
// NVLSTree (several nodes): the switch reduces inside the node, the GPUs at the same local
// position all-reduce their S/G slice across nodes through their own NIC (a ring over the
// nodes: 2(N-1)/N x S/G per GPU), and the switch multicasts the result. NCCL pipelines chunks
// through the three stages, so they overlap: one step holds all the traffic and the slowest
// port (NVSwitch or NIC) sets the time.
// How the schedule draws it: the switch is not a rank, so each GPU's port load (S up and S
// down) is drawn as a send of S bytes to the next GPU of the node: that charges every port once
// each way, which is what the hardware does. Only on nodes with NVLink SHARP (available()).
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class NvlsAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "nvls"; }
  std::string_view summary() const override
  {
    return "nvls: NVSwitch SHARP reduce + multicast (NVLSTree across nodes), S per GPU port";
  }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  bool available(const Topology& topo) const override;
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  HopCount latency_hops(const Request& req) const override;
  bool nccl_selectable() const override { return true; }
  NcclFamily nccl_family() const override { return NcclFamily::nvls; }
  // NVIDIA/nccl v2.17.1-1 (commit 5d3ab08b, 2023-02-27): "Add new NVLS algorithm for allreduce
  // using NVLink SHARP (intra-node only)"; v2.18.1-1 (d97a32fa): "Add NVLS+Tree algorithm".
  Version nccl_since(const Topology& topo) const override;
};

}  // namespace ddpsim::algo
