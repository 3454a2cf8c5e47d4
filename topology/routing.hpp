// Routes between devices. Inside a node a route is the lowest-cost path (cost = latency + the time
// to move 1 MiB, so wide links win) that never forwards through another GPU: GPUs are endpoints,
// as in NCCL's point-to-point paths. Between nodes, a GPU goes to its NIC, across the fabric, and
// from the peer NIC to the destination GPU. Intra-node paths are computed once on node 0 and shifted
// (a node with a degraded internal link, a what-if, gets its own, avoiding links that are down).
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <map>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace ddpsim {

struct Route {
  std::vector<EdgeId> links;
  Time latency;          // sum of link latencies
  Bandwidth bottleneck;  // smallest bandwidth along the route
};

// The transport's cap on one connection from `src` to `dst` in bytes/s (0 = none): on instances
// whose NIC caps each TCP flow (NicSpec::flow_cap), a connection between nodes gets at most
// flow_cap x flows_per_connection (NCCL's sockets per connection); inside a node, no cap.
double connection_cap(const Topology& topo, VertexId src, VertexId dst);

class Router {
 public:
  explicit Router(const Topology& topo);

  // Route from device `src` to device `dst` (GPUs or CPUs). src != dst.
  Route route(VertexId src, VertexId dst) const;

 private:
  std::vector<EdgeId> local_path(VertexId src, VertexId dst) const;  // both in one node
  Route finish(std::vector<EdgeId> links) const;

  // One node's devices and internal links, in their global order, as local vertex ids (device -
  // first device of the node); each edge keeps its global EdgeId. Built when a node is searched.
  using NodeGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                          boost::property<boost::edge_index_t, EdgeId>>;
  const NodeGraph& node_graph(int node) const;

  const Topology& topo_;
  mutable std::map<int, NodeGraph> node_graphs_;
  // In the reference node's ids (the first node without degraded internal links), or in a
  // degraded node's own ids for its routes.
  mutable std::map<std::pair<VertexId, VertexId>, std::vector<EdgeId>> node0_paths_;
  int reference_node_ = 0;
};

}  // namespace ddpsim
