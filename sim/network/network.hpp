// Network backends: given collective schedules and when each may start, say when each ends.
// Backends: analytical (alpha-beta per route: exact while no two flows share a link) and, in
// its own target, flow-level on SimGrid (max-min sharing). They agree where nothing is shared.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/schedule.hpp"
#include "core/units.hpp"
#include "sim/engine/timeline.hpp"
#include "topology/routing.hpp"

namespace ddpsim::sim {

// One collective to run. Jobs on the same stream run one after another in the order given (as
// NCCL kernels on one CUDA stream); a job starts at max(ready, end of the previous on its stream,
// end of the job it comes `after`).
struct CollectiveJob {
  Time ready{0};
  int stream = 0;
  algo::CoarseSchedule schedule;
  std::string label;  // e.g. "bucket 3", for timelines
  // An earlier job (its index) that must end first: the previous part of one collective whose
  // parts run on different streams (algo::split_by_side; sim/step/iteration.cpp).
  std::optional<std::size_t> after = std::nullopt;
};

struct JobTiming {
  Time start{0};
  Time end{0};
};

class NetworkBackend {
 public:
  virtual ~NetworkBackend() = default;
  virtual std::string_view name() const = 0;
  // Runs the jobs; returns their timings in the same order.
  virtual std::vector<JobTiming> run(const std::vector<CollectiveJob>& jobs) = 0;
  // Time of one step-level schedule alone on an idle network (tests, teaching, traces).
  virtual Time run_steps(const algo::StepSchedule& schedule) = 0;

  // When set, run() records each phase of each job on the timeline (sim/network_trace.hpp).
  void set_timeline(Timeline* timeline) { timeline_ = timeline; }

 protected:
  Timeline* timeline_ = nullptr;
};

}  // namespace ddpsim::sim
