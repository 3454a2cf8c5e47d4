// Recursive halving-doubling (Rabenseifner; Thakur, Rabenseifner & Gropp, IJHPCA 2005).
// P a power of two: log2(P) reduce-scatter steps, in step i (i = 0..log2P-1) rank r exchanges
// half of what it still holds, S/2^(i+1) bytes, with rank r XOR 2^i; then the same exchanges in
// reverse order gather the result. Bytes sent per rank: 2(P-1)/P x S. Latency: 2 log2(P) hops.
// Partners at distance 1 first: with node-major ranks the large early exchanges stay inside a
// node and only the small late ones cross the network.
// P not a power of two: the first P - P' ranks (P' the largest power of two <= P) fold their
// whole buffer into rank r + P' first and receive the result from it at the end (2 more hops,
// S more bytes for those ranks).
// Also reduce_scatter (the halving half) and all_gather (the doubling half) for P a power of two.
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class RecursiveHalvingDoubling final : public Algorithm {
 public:
  std::string_view name() const override { return "rhd"; }
  std::string_view summary() const override { return "recursive halving-doubling: 2 log2(P) steps, 2(P-1)/P x S per rank"; }
  bool supports(CollectiveOp op) const override;
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  std::vector<ByteRange> shard(const Request& req, std::size_t rank) const override;
};

}  // namespace ddpsim::algo
