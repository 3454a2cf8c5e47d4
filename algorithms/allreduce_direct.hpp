// Direct (one-shot all-to-all exchange; the pattern of NCCL's CollNet-Direct peers and of
// MSCCL's "allpairs"): the buffer is cut into P chunks, rank j owns chunk j.
//   reduce-scatter: P-1 steps; in step k (1..P-1) rank r sends its copy of chunk (r+k) mod P to
//   its owner. all-gather: P-1 steps; in step k rank r sends its reduced chunk r to rank (r+k) mod P.
// The shift pattern keeps every step a permutation (each rank sends one and receives one message),
// so no link carries two messages at once on a switch. Bytes sent per rank: 2(P-1)/P x S (as the
// ring), latency 2(P-1) hops: no better than the ring on paper, but every hop is a direct path.
// broadcast: the root sends all S bytes to each other rank, one step each: (P-1) x S from the root.
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class DirectAllReduce final : public Algorithm {
 public:
  std::string_view name() const override { return "direct"; }
  std::string_view summary() const override { return "direct: P-1 shift steps each way, S/P to every peer"; }
  bool supports(CollectiveOp op) const override;
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
};

}  // namespace ddpsim::algo
