// The input of one flow-level simulation as plain data: directed links, routes over them, and a
// DAG of items. The flow backend builds it from collective schedules (no SimGrid involved);
// run_flow_graph() hands it to SimGrid in the current process. Plain data so it can be built in
// the parent and simulated in a forked child.
#pragma once

#include <cstdint>
#include <vector>

namespace ddpsim::sim {

struct FlowGraph {
  // One direction of a physical link (a split-duplex half): its own capacity, never shared with
  // the other direction. A fatpipe gives every flow the full bandwidth (used for pure delays).
  struct Link {
    double bandwidth = 0;  // bytes/s
    double latency = 0;    // seconds
    bool fatpipe = false;
  };
  // An item completes when its payload has crossed its route, after all its deps completed.
  // Items without a route complete as soon as their deps did (barriers); payload 0 over a route
  // is a pure delay (the route's latency).
  struct Item {
    std::int32_t route = -1;            // index into routes, or -1
    std::uint64_t bytes = 0;
    std::vector<std::uint32_t> deps;    // earlier items only
  };

  std::vector<Link> links;
  std::vector<std::vector<std::uint32_t>> routes;  // link indices, in path order
  std::vector<Item> items;
};

// The largest payload one item may carry (2^50 bytes, 1 PiB): beyond it SimGrid's double
// arithmetic on remaining bytes is no longer exact enough to finish the flow. run_flow_graph()
// throws OverflowError past it.
inline constexpr std::uint64_t kMaxFlowBytes = std::uint64_t{1} << 50;

struct FlowRunStats {
  std::uint64_t comms = 0;  // SimGrid communications started
};

// Simulates `graph` with SimGrid (CM02, no cross-traffic, TCP-gamma 0) and returns each item's
// completion time in seconds. Uses SimGrid's process-global engine: call it at most once per
// process (the backend calls it in a forked child). Throws InternalError on a deadlock.
std::vector<double> run_flow_graph(const FlowGraph& graph, FlowRunStats* stats = nullptr);

}  // namespace ddpsim::sim
