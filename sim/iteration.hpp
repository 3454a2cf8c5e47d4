// One data-parallel training iteration of one representative GPU (all ranks of a homogeneous job
// do the same work). Forward, then backward layer by layer in reverse; each bucket's all-reduce
// is released when its last gradient is ready and runs in bucket order on one communication
// stream, overlapping the rest of backward; the optimizer runs once backward and every bucket
// are done. The input pipeline prefetches in parallel: when loading a batch takes longer than
// the step, the step waits for it.
#pragma once

#include <functional>
#include <vector>

#include "algorithms/schedule.hpp"
#include "sim/buckets.hpp"
#include "sim/compute.hpp"
#include "sim/network.hpp"
#include "sim/timeline.hpp"

namespace ddpsim::sim {

struct IterationSetup {
  const ModelSpec* model = nullptr;
  LayerTimes times;
  std::vector<Bucket> buckets;
  Time optimizer{0};
  Time loader{0};  // time the input pipeline needs per batch (0: never the bound)
  // The schedule of one bucket's all-reduce of `bytes`.
  std::function<algo::CoarseSchedule(Bytes)> collective;
  NetworkBackend* network = nullptr;
};

struct BucketTiming {
  Bytes bytes;
  Time ready{0}, start{0}, end{0};
};

struct IterationResult {
  Time step{0};          // iteration time in steady state
  Time forward{0}, backward{0}, optimizer{0};
  Time comm_busy{0};     // sum of the all-reduce durations
  Time exposed_comm{0};  // communication not hidden behind backward
  Time loader_wait{0};   // time the step waits for input
  std::vector<BucketTiming> buckets;
};

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline = nullptr);

}  // namespace ddpsim::sim
