// Broadcast over a pipelined ring (NCCL's ring broadcast, src/device/broadcast.h: the root's
// buffer is cut into chunks that flow rank 0 -> 1 -> ... -> P-1, each rank forwarding a chunk
// as soon as it has it). The ring is opened at the root: P-1 edges, each carrying all S bytes;
// with the chunks pipelined every edge is busy at once, so the slowest edge sets the bandwidth
// time (S / slowest edge, not (P-1) x S from the root as `direct` sends) and the latency is the
// P-1 hops of the chain. Bytes sent per rank: S (the last rank sends nothing).
// nccl-tests' broadcast_perf busbw factor is 1 (doc/PERFORMANCE.md in NVIDIA/nccl-tests).
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class RingBroadcast final : public Algorithm {
 public:
  std::string_view name() const override { return "ring-broadcast"; }
  std::string_view summary() const override
  {
    return "ring-broadcast: root -> 1 -> ... -> P-1, chunks pipelined (S on every edge)";
  }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::broadcast; }
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
  HopCount latency_hops(const Request& req) const override;
};

}  // namespace ddpsim::algo
