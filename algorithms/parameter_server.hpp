// A classic synchronous parameter server (Li et al., OSDI 2014; MXNet kvstore dist_sync), for
// comparison with Herring: no intra-node pre-reduction. Modelled with the servers co-located on
// the worker instances' CPU sockets, one shard of the parameters per server (N nodes x stripes
// servers), rather than on separate server instances: the topology has no extra hosts, and with
// as many server NICs as worker NICs the traffic per NIC is the same. For S bytes per GPU:
//   1. every GPU copies its whole gradient to host memory (PCIe);
//   2. push: each node sends every server its g GPUs' copies of that server's shard
//      (g x S/(N x stripes) per server; N-1 rounds over the NIC);
//   3. each server sums N x g contributions at CPU memory bandwidth;
//   4. pull: every worker GPU fetches its own copy of each shard (g copies per node);
//   5. host to GPU copy of the whole gradient.
// NIC bytes per node and direction: g x (N-1)/N x S, g times Herring's.
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class ParameterServerAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "parameter-server"; }
  std::string_view summary() const override
  {
    return "parameter-server: every GPU pushes its gradient shards to CPU servers, which sum and serve them back";
  }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
};

}  // namespace ddpsim::algo
