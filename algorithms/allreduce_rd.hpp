// Recursive doubling (the short-message all-reduce of MPICH and Open MPI; Thakur, Rabenseifner &
// Gropp, "Optimization of Collective Communication Operations in MPICH", IJHPCA 2005, sec. 4.4):
// P' the largest power of two <= P; the first P - P' ranks fold their whole buffer into rank
// r + P' first; then log2(P') steps in which active rank a exchanges its WHOLE buffer with rank
// a XOR 2^i and both reduce; the folded ranks get the result back at the end. Latency log2(P')
// hops (+2 when P is not a power of two), S bytes per rank per step: the algorithm for buffers
// so small that only the hops count (Horovod's bit vectors, sim/step/framework_comm.hpp).
// Ranks may share a device (host processes on one CPU socket): such a pair exchanges through
// the device's memory, a local copy that pays the step's intra-node software cost.
#pragma once

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class RecursiveDoubling final : public Algorithm {
 public:
  std::string_view name() const override { return "rd"; }
  std::string_view summary() const override { return "recursive doubling: log2(P) steps, S to one partner each"; }
  bool supports(CollectiveOp op) const override { return op == CollectiveOp::all_reduce; }
  StepSchedule steps(const Request& req) const override;
  CoarseSchedule phases(const Request& req) const override;
};

}  // namespace ddpsim::algo
