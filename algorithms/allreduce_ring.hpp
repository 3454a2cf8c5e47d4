// Ring (Patarasuk & Yuan 2009; NCCL's Ring): the buffer is cut into P chunks; P-1 reduce-scatter
// steps then P-1 all-gather steps, each rank sending one chunk to its ring successor per step.
// Bytes sent per rank: 2(P-1)/P x S. Latency: 2(P-1) hops. Also reduce_scatter and all_gather
// (the two halves: (P-1)/P x S and P-1 hops each).
//
// Channels (NCCL): the buffer is split over `channels` rings that run at once. Ring c visits the
// nodes in the same order but rotates each node's local order by c x G / channels, so the hop
// between two nodes leaves and enters through different GPUs, hence different NICs, on each
// channel (NCCL's search builds one ring per NIC the same way). Inside a node the rotated rings
// reuse the same GPU pairs; those pairs carry the sum of the channels' bytes.
#pragma once

#include "algorithms/algorithm.hpp"
#include "algorithms/common.hpp"

namespace ddpsim::algo {

class RingAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "ring"; }
  std::string_view summary() const override { return "ring: 2(P-1) steps of S/P bytes to the ring successor"; }
  bool supports(CollectiveOp op) const override;
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  // Pipelined (NCCL): 2(P-1) hops of which 2N cross the network on the slowest chunk (P-1 and N
  // for the halves; round 4 session 33, allreduce_ring.cpp).
  HopCount latency_hops(const Request& req) const override;
  std::vector<ByteRange> shard(const Request& req, std::size_t rank) const override;
  bool nccl_selectable() const override { return true; }
};

// The rank order of ring `channel` of `channels` (see above); channel 0 is `req.ranks`. With
// req.channel_orders (and `channels` == req.channels), that channel's own order.
std::vector<VertexId> channel_ring(const Request& req, int channel, int channels);

}  // namespace ddpsim::algo
