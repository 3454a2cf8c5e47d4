// Ring all-reduce (Patarasuk & Yuan 2009; NCCL's Ring): the buffer is cut into P chunks; P-1
// reduce-scatter steps then P-1 all-gather steps, each rank sending one chunk to its ring
// successor per step. Bytes sent per rank: 2(P-1)/P x S. Latency: 2(P-1) hops.
// Also reduce_scatter and all_gather (the two halves: (P-1)/P x S and P-1 hops each).
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class RingAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "ring"; }
  std::string_view summary() const override { return "ring: 2(P-1) steps of S/P bytes to the ring successor"; }
  bool supports(CollectiveOp op) const override;
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
};

// Splits `total` bytes into `parts` chunks that differ by at most one byte (the first ones larger).
std::vector<Bytes> split_even(Bytes total, std::size_t parts);

}  // namespace ddpsim::algo
