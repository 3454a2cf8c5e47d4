// One data-parallel training iteration (one optimizer step) of one representative GPU (all ranks
// of a homogeneous job do the same work). With gradient accumulation over k micro-steps, the
// first k-1 run forward and backward without communication (DDP's no_sync()); the last one runs
// forward, then backward layer by layer in reverse while the framework's gradient reductions
// (sim/frameworks.hpp) are released as their gradients become ready and run in order on one
// communication stream, overlapping the rest of backward; the optimizer runs once backward and
// every reduction are done, then the framework's fixed per-step overhead (Lightning). The input
// pipeline prefetches in parallel: when loading the step's batches takes longer than the step,
// the step waits for it.
#pragma once

#include <functional>
#include <vector>

#include "algorithms/schedule.hpp"
#include "sim/training/buckets.hpp"
#include "sim/training/compute.hpp"
#include "sim/training/frameworks.hpp"
#include "sim/network/network.hpp"
#include "sim/engine/timeline.hpp"

namespace ddpsim::sim {

struct IterationSetup {
  const ModelSpec* model = nullptr;
  LayerTimes times;
  FrameworkOptions framework;
  int accum_steps = 1;   // micro-steps per optimizer step (training.grad_accum_steps)
  Time optimizer{0};
  Time step_overhead{0};  // the framework's own fixed cost per optimizer step (Lightning)
  Time loader{0};  // time the input pipeline needs per optimizer step (0: never the bound)
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
  Time forward{0}, backward{0}, optimizer{0};  // summed over the micro-steps
  Time overhead{0};      // framework per-step overhead
  Time comm_busy{0};     // sum of the all-reduce durations
  Time exposed_comm{0};  // communication not hidden behind backward
  Time loader_wait{0};   // time the step waits for input
  std::vector<BucketTiming> buckets;
};

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline = nullptr);

}  // namespace ddpsim::sim
