// The analytical backend. A flow of b bytes over a route costs steps x (route latency + step
// overhead) + b / (route bottleneck bandwidth); a phase ends with its slowest flow; a collective
// is its fixed latency plus its phases in sequence, and a phase lasts at least as long as its
// busiest shared link needs for all the bytes its flows put on it (shared_link_time). Local
// reduce/copy tasks run at the device's memory bandwidth. How flows divide a shared link, and
// flows of different collectives meeting, are the flow backend's job; jobs on different streams
// that run at once (a pipelined collective's parts) are charged each other's bytes on the links
// of nodes they both cross, first come first served (booked_phase_time).
#pragma once

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/network/network.hpp"

namespace ddpsim::sim {

// A route class this backend has priced: one (src, dst) of the class and its bottleneck (B/s).
struct PricedRoute {
  VertexId src = 0, dst = 0;
  double bottleneck = 0;
};

class AnalyticalBackend final : public NetworkBackend {
 public:
  explicit AnalyticalBackend(const Topology& topo);

  std::string_view name() const override { return "analytical"; }
  std::vector<JobTiming> run(const std::vector<CollectiveJob>& jobs) override;
  Time run_steps(const algo::StepSchedule& schedule) override;

  // Duration of one collective alone.
  Time duration(const algo::CoarseSchedule& schedule);

  // The time the busiest link that two or more of the phase's flows cross needs for all their
  // bytes (0: no link of a node carries two of them). A phase lasts at least this long.
  Time shared_link_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule);
  // True when some phase of `schedule` has a shared link (shared_link_time above 0).
  bool shares_links(const algo::CoarseSchedule& schedule);

  // Every route class priced so far (issue 21: shape_cache.hpp), or nullopt when there are too
  // many to list cheaply (a topology without symmetry prices one class per device pair).
  std::optional<std::vector<PricedRoute>> priced_routes() const;
  // True when this backend prices each of `routes` with the same bottleneck.
  bool same_bottlenecks(const std::vector<PricedRoute>& routes);

 private:
  struct PathCost {
    Time latency;
    Bandwidth bandwidth;
    VertexId src = 0, dst = 0;  // the first pair priced in its class
  };
  PathCost cost(algo::TaskKind kind, VertexId src, VertexId dst);
  // `route_latency`: the schedule's flag (algo::CoarseSchedule::route_latency).
  Time phase_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule);

  // A route's cost class (see cost()): its ends' offsets in their symmetry periods and whether
  // the periods differ, or the two device ids when the topology has no symmetry.
  std::uint64_t route_class(VertexId src, VertexId dst) const;

  // The links of nodes on the route from src to dst (shared_link_time), routed once per pair.
  const std::vector<EdgeId>& node_links(VertexId src, VertexId dst);

  const Topology& topo_;
  Router router_;
  std::unordered_map<std::uint64_t, std::vector<EdgeId>> node_links_;
  struct LinkUse {
    std::uint64_t key;  // an edge, or link_count() + a device for its memory
    double bytes;
    Time fixed;
  };
  std::vector<LinkUse> link_uses_;  // collect_uses' buffer
  // The phase's (link, flow) crossings, sorted by link, in link_uses_ (valid until the next call).
  const std::vector<LinkUse>& collect_uses(const algo::Phase& phase, const algo::CoarseSchedule& schedule);
  Bandwidth key_bandwidth(std::uint64_t key) const;  // a LinkUse key's link or memory
  // Jobs on several streams (run()): what each phase put on each link, and when.
  struct Booking {
    int stream;
    Time from, to;
    double rate;  // bytes per picosecond on the link
  };
  // A link's bookings in the order they were made, and per block of kBlock of them the earliest
  // start and latest end: a query skips a block that cannot overlap it, and sums the others in
  // booking order, so the sum (and every time) is what a scan of all of them gives.
  struct LinkLedger {
    static constexpr std::size_t kBlock = 32;
    std::vector<Booking> bookings;
    std::vector<std::pair<Time, Time>> blocks;  // (min from, max to) of bookings [k kBlock, (k + 1) kBlock)
    void add(const Booking& b);
  };
  std::unordered_map<std::uint64_t, LinkLedger> ledger_;
  std::vector<std::pair<std::uint64_t, double>> phase_links_;  // booked_phase_time's buffer: bytes per link
  Time booked_phase_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule, int stream, Time t, Time d);
  std::uint64_t period_vertices_ = 0;  // devices per symmetry period; 0: no symmetry
  std::vector<PathCost> table_;        // by route class when classes are few (index + 1 in table_used_)
  std::vector<bool> table_used_;
  std::unordered_map<std::uint64_t, PathCost> cache_;
};

// Memory bandwidth of a device, for local reductions and copies (GPU: HBM; CPU: its DRAM).
Bandwidth memory_bandwidth(const Topology& topo, VertexId device);

}  // namespace ddpsim::sim
