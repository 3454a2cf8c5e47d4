// Collectives as participants of the step's engine (issue 17): a collective is released at an
// engine time (job.ready >= now), starts when its stream is free (collectives on one stream run
// one after another, as NCCL kernels on one CUDA stream), and its end is an engine event, so
// whatever waits for it (a layer's compute on its parameter gather, the optimizer on the last
// gradient reduction) resumes then.
//   A backend that shares nothing between collectives (analytical): each
//   collective is timed alone the moment it is released. Exact.
//   A backend that shares links (flow): collectives in flight together slow each other, so they
//   must be timed in one batch. `planned` then holds the batch's timings for the releases of the
//   previous run of the step (index = release order), and the step is re-run until its releases
//   stop changing (the fixed point of simulate_iteration, iteration.cpp). A release beyond the
//   plan (the first run) is taken as instantaneous.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/network/network.hpp"

namespace ddpsim::sim {

class CommStreams {
 public:
  CommStreams(Engine& engine, NetworkBackend& network, const std::vector<JobTiming>* planned)
      : engine_(engine), network_(network), planned_(planned)
  {
  }

  // Releases `job`; `on_end` runs at its end. Returns its index (release order).
  std::size_t submit(CollectiveJob job, std::function<void()> on_end);

  const std::vector<CollectiveJob>& jobs() const { return jobs_; }
  const std::vector<JobTiming>& timings() const { return timings_; }

 private:
  Engine& engine_;
  NetworkBackend& network_;
  const std::vector<JobTiming>* planned_;
  std::vector<CollectiveJob> jobs_;
  std::vector<JobTiming> timings_;
  std::map<int, Time> free_;  // per stream: when its last collective ends
};

// True when two runs of a step released the same collectives at the same times on the same streams.
bool same_releases(const std::vector<CollectiveJob>& a, const std::vector<CollectiveJob>& b);

}  // namespace ddpsim::sim
