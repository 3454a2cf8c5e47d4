// The flow-level backend: SimGrid's max-min sharing (CM02, no cross-traffic, TCP-gamma 0) over
// the topology's links, so flows that share a NIC, an oversubscribed fabric uplink or a CPU's
// memory slow each other down. Collective phases become coarse flows (one per flow of the
// CoarseSchedule, carrying all its bytes); the per-step latencies steps x (route latency + step
// overhead) are added analytically as a delay in front of each flow, so where nothing is shared
// it gives the analytical backend's times (tests assert 1e-6 relative).
//
// Symmetry: when every symmetry period of the topology (a node, or a leaf of a leaf/spine fabric)
// sends the same flows shifted by whole periods, only period 0's flows are simulated, on links
// folded onto period 0: each link then carries the load every copy of it carries. Otherwise every
// flow is simulated ("per-rank"). last_stats() says which.
//
// Each run() forks a child process for SimGrid (core/subprocess.hpp), so the backend can be used
// any number of times from one process.
#pragma once

#include "sim/network/network.hpp"

namespace ddpsim::sim {

struct FlowStats {
  std::uint64_t flows = 0;      // flows simulated (after folding)
  std::uint64_t comms = 0;      // SimGrid communications started
  bool folded = false;          // simulated one symmetry period instead of every rank
  double peak_rss_kib = 0;      // peak resident memory of the simulation process
};

class FlowBackend final : public NetworkBackend {
 public:
  explicit FlowBackend(const Topology& topo);

  std::string_view name() const override { return "flow"; }
  std::vector<JobTiming> run(const std::vector<CollectiveJob>& jobs) override;
  Time run_steps(const algo::StepSchedule& schedule) override;

  // Disables symmetry folding (tests compare folded against per-rank).
  void set_folding(bool on) { folding_ = on; }
  const FlowStats& last_stats() const { return stats_; }

 private:
  const Topology& topo_;
  Router router_;
  bool folding_ = true;
  FlowStats stats_;
};

}  // namespace ddpsim::sim
