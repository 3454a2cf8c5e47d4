// Issue 21 (speed at scale): what NCCL's model takes from an algorithm's coarse schedule, kept
// across runs of one scenario that differ only in knob values (sim/study/knobs.hpp): the
// interval samples of `ddpsim scenario` (catalog [assume] ranges on the NIC, NVLink and PCIe
// latencies), the screen that decides whether they are needed, and the reported run. At 131,072
// GPUs building and timing each bucket's ring and tree schedules for all ranks was most of each of
// those 21 runs.
//
// CollectiveModel (collective_model.hpp) prices an NCCL algorithm from three things that hold no
// latency: the schedule (built from the rank order, the channel count, the channels' own orders
// and the topology's structure; no algorithm reads a link's latency or bandwidth), its transfers
// alone (B_line: each flow's route bottleneck, with route latency off) and its hop counts. Knobs
// never change the topology's structure, but a latency can change which path a node's router
// picks (its search weighs latency and bandwidth), hence the rank orders and the bottlenecks. So
// reuse is checked, not assumed: the rank order, channel count and channel orders must be equal,
// and every route class the schedule's timing priced must have the same bottleneck on the new
// topology (AnalyticalBackend::priced_routes). Otherwise the schedule is built afresh.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "sim/network/analytical.hpp"

namespace ddpsim::sim {

struct NcclShape {
  algo::CoarseSchedule schedule;    // as the algorithm built it, latency-free request
  double line_us = 0;               // B_line: its transfers alone, route latency off
  algo::HopCount hops;
  std::vector<PricedRoute> routes;  // the route classes priced when it was timed
};

// The shapes of one configuration (node count, GPUs per node, framework: one CollectiveModel).
struct ShapeScope {
  std::vector<VertexId> ranks;  // the rank order the shapes were built with (empty: none yet)
  int channels = 0;
  std::vector<std::vector<VertexId>> channel_orders;  // algo::Request::channel_orders (empty: none)
  std::map<std::tuple<const algo::Algorithm*, int, std::uint64_t>, NcclShape> shapes;  // (algorithm, op, bytes)
  std::size_t reused = 0;  // shapes taken from here instead of built (tests, docs/performance.md)
};

class ShapeCache {
 public:
  // The scope named `key` (created empty on first use).
  std::shared_ptr<ShapeScope> scope(const std::string& key)
  {
    std::shared_ptr<ShapeScope>& s = scopes_[key];
    if (!s) s = std::make_shared<ShapeScope>();
    return s;
  }

 private:
  std::map<std::string, std::shared_ptr<ShapeScope>> scopes_;
};

}  // namespace ddpsim::sim
