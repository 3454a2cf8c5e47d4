// SMDDP's all-reduce ("Herring", Thangakrishnan et al., SC20; SageMaker developer guide,
// data-parallel-intro), as FACTS.md describes it. For a buffer of S bytes on N nodes of g GPUs:
//   1. intra-node ring reduce-scatter over NVLink: GPU j holds a reduced shard of ~S/g;
//   2. each GPU copies its shard to host memory over PCIe (to its server socket);
//   3. the node's host buffer is sharded into N balanced parts; part i goes to the CPU server on
//      node i over the NIC (N-1 rounds, one peer per round, so each NIC carries one flow);
//   4. server i sums the N parts it received at CPU memory bandwidth (N x S/N bytes read);
//   5. and sends the sum back to every node (N-1 rounds);
//   6. each GPU copies its shard back over PCIe; 7. intra-node ring all-gather.
// Bytes over each node's NIC per direction: (N-1)/N x S, against 2(N-1)/N x S for a flat ring
// (FACTS.md: "twice as fast as all-reduce-based methods" when the network binds). On one node it
// is the ring's reduce-scatter and all-gather alone. The host side is striped over
// min(CPU sockets, NICs) server sockets (algorithms/host_exchange.hpp).
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class HerringAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "herring"; }
  std::string_view summary() const override
  {
    return "herring (SMDDP): intra-node reduce-scatter, shards to CPU servers on every node, CPU sum, back, all-gather";
  }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
};

}  // namespace ddpsim::algo
