// Step granularity (`ddpsim scenario --granularity step`, issue 21): each reduction of the step
// timed from its step-level schedule (algorithms/schedule.hpp: every send, reduce and copy, as a
// DAG) on an idle network, instead of from its coarse phases. The algorithm, protocol, channels
// and rank order are the ones the CollectiveModel chose for the coarse form; what the coarse form
// adds on top of the links (NCCL's latency formula, the protocol's framing and bandwidth cap, the
// calibration profile) does not apply here: the step-level time is the schedule on the catalog's
// links alone (route latency per send, link rates, a non-NCCL library's software cost per step).
// The reductions still run one after another on the communication stream; a step-level time is
// the collective alone, so two collectives in flight at once (sharded frameworks' parameter
// gathers, priced separately and kept coarse) do not share links in this mode.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "sim/network/collective_model.hpp"
#include "sim/network/network.hpp"

namespace ddpsim::sim {

// Step granularity simulates every send: at most this many GPUs per configuration. Measured
// (release build, 2 shared cores, ResNet-50 DDP with communication.algorithm: ring, 2(n-1) x n
// sends per bucket size): analytical, 1,024 GPUs 5.6 s and 677 MiB; flow (SimGrid), 128 GPUs
// 1.2 s, 256 GPUs 6.7 s and 436 MiB, growing about as the square of the GPUs.
inline constexpr std::int64_t kMaxStepLevelGpus = 1024;
inline constexpr std::int64_t kMaxStepLevelFlowGpus = 256;

class StepLevelTimer {
 public:
  StepLevelTimer(const CollectiveModel& model, NetworkBackend& network) : model_(model), network_(network) {}
  // Replaces `p`'s schedule by one that takes the step-level time of (op, bytes) with p's
  // algorithm. `staged`: keep p's first and last phases (Gloo's copies between GPU and host).
  void apply(PricedCollective& p, algo::CollectiveOp op, Bytes bytes, bool staged);

 private:
  const CollectiveModel& model_;
  NetworkBackend& network_;
  std::map<std::pair<int, std::uint64_t>, Time> memo_;  // DDP's buckets repeat a few sizes
};

}  // namespace ddpsim::sim
