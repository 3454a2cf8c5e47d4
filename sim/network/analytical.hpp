// The analytical backend. A flow of b bytes over a route costs steps x (route latency + step
// overhead) + b / (route bottleneck bandwidth); a phase ends with its slowest flow; a collective
// is its fixed latency plus its phases in sequence. Local reduce/copy tasks run at the device's
// memory bandwidth. Flows never slow each other down here: that is the flow backend's job.
#pragma once

#include <unordered_map>

#include "sim/network/network.hpp"

namespace ddpsim::sim {

class AnalyticalBackend final : public NetworkBackend {
 public:
  explicit AnalyticalBackend(const Topology& topo);

  std::string_view name() const override { return "analytical"; }
  std::vector<JobTiming> run(const std::vector<CollectiveJob>& jobs) override;
  Time run_steps(const algo::StepSchedule& schedule) override;

  // Duration of one collective alone.
  Time duration(const algo::CoarseSchedule& schedule);

 private:
  struct PathCost {
    Time latency;
    Bandwidth bandwidth;
  };
  PathCost cost(algo::TaskKind kind, VertexId src, VertexId dst);
  // `route_latency`: the schedule's flag (algo::CoarseSchedule::route_latency).
  Time phase_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule);

  const Topology& topo_;
  Router router_;
  std::unordered_map<std::uint64_t, PathCost> cache_;
};

// Memory bandwidth of a device, for local reductions and copies (GPU: HBM; CPU: its DRAM).
Bandwidth memory_bandwidth(const Topology& topo, VertexId device);

}  // namespace ddpsim::sim
