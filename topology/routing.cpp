#include "topology/routing.hpp"

#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/property_map/function_property_map.hpp>
#include <functional>
#include <limits>
#include <map>

#include "core/error.hpp"

namespace ddpsim {
namespace {

// Keeps one node's devices (local ids), minus GPUs other than the two endpoints (GPUs never forward).
struct NodeFilter {
  const Topology* topo = nullptr;
  VertexId first = 0;  // the node's first device
  VertexId src = 0, dst = 0;  // local ids
  bool operator()(std::size_t v) const
  {
    const Device& d = topo->device(first + static_cast<VertexId>(v));
    return d.kind != DeviceKind::gpu || v == src || v == dst;
  }
};

// Drops links that are down (what-if: an NVLink with every lane lost).
template <class Graph>
struct LinkUp {
  const Topology* topo = nullptr;
  typename boost::property_map<Graph, boost::edge_index_t>::const_type index;
  template <class Edge>
  bool operator()(const Edge& e) const
  {
    return !topo->link(index[e]).down;
  }
};

constexpr double kReferenceBytes = 1024.0 * 1024.0;

}  // namespace

Router::Router(const Topology& topo) : topo_(topo)
{
  while (reference_node_ + 1 < topo_.nodes() && !topo_.node_regular(reference_node_)) ++reference_node_;
}

double connection_cap(const Topology& topo, VertexId src, VertexId dst)
{
  const NicSpec& nic = topo.instance().nic;
  if (nic.flow_cap.bytes_per_s <= 0 || topo.device(src).node == topo.device(dst).node) return 0;
  return nic.flow_cap.bytes_per_s * nic.flows_per_connection;
}

// The node's internal links in global order: the same out-edge order, hence the same searches
// and tie-breaks, as the former whole-cluster graph restricted to the node.
const Router::NodeGraph& Router::node_graph(int node) const
{
  auto it = node_graphs_.find(node);
  if (it != node_graphs_.end()) return it->second;
  const std::size_t vpn = topo_.vertices_per_node(), lpn = topo_.links_per_node();
  const VertexId first = static_cast<VertexId>(static_cast<std::size_t>(node) * vpn);
  NodeGraph g(vpn);
  for (std::size_t i = 0; i < lpn; ++i) {
    const EdgeId e = static_cast<EdgeId>(static_cast<std::size_t>(node) * lpn + i);
    const Link& l = topo_.link(e);
    boost::add_edge(l.from - first, l.to - first, e, g);
  }
  return node_graphs_.emplace(node, std::move(g)).first->second;
}

std::vector<EdgeId> Router::local_path(VertexId src, VertexId dst) const
{
  const int node = topo_.device(src).node;
  DDPSIM_CHECK(node >= 0 && node == topo_.device(dst).node, "local_path between different nodes");
  // A node with a degraded internal link (what-if) gets its own routes; the others share node 0's.
  const bool regular = topo_.node_regular(node);
  const int at = regular ? reference_node_ : node;
  const VertexId shift_v = static_cast<VertexId>(static_cast<std::size_t>(node - at) * topo_.vertices_per_node());
  const EdgeId shift_e = static_cast<EdgeId>(static_cast<std::size_t>(node - at) * topo_.links_per_node());
  const VertexId s0 = src - shift_v, d0 = dst - shift_v;

  auto cached = node0_paths_.find({s0, d0});
  if (cached == node0_paths_.end()) {
    const NodeGraph& g = node_graph(at);
    const VertexId first = static_cast<VertexId>(static_cast<std::size_t>(at) * topo_.vertices_per_node());
    const VertexId ls = s0 - first, ld = d0 - first;
    NodeFilter filter{&topo_, first, ls, ld};
    LinkUp<NodeGraph> up{&topo_, boost::get(boost::edge_index, g)};
    boost::filtered_graph<NodeGraph, LinkUp<NodeGraph>, NodeFilter> view(g, up, filter);
    const std::size_t n = boost::num_vertices(g);
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> pred(n);
    auto edge_id = boost::get(boost::edge_index, g);
    auto weight = boost::make_function_property_map<NodeGraph::edge_descriptor, double>(
        [&](NodeGraph::edge_descriptor e) {
          const Link& l = topo_.link(edge_id[e]);
          return l.latency.seconds() + kReferenceBytes / l.bandwidth.bytes_per_s;
        });
    boost::dijkstra_shortest_paths(view, ls,
                                   boost::weight_map(weight)
                                       .distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
                                       .predecessor_map(boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, g))));
    DDPSIM_CHECK(dist[ld] < std::numeric_limits<double>::infinity(),
                 "no route from " + topo_.device_name(s0) + " to " + topo_.device_name(d0));
    std::vector<EdgeId> path;
    for (std::size_t v = ld; v != ls; v = pred[v]) {
      auto [e, found] = boost::edge(pred[v], v, g);
      DDPSIM_CHECK(found, "broken predecessor chain");
      path.push_back(edge_id[e]);
    }
    std::reverse(path.begin(), path.end());
    cached = node0_paths_.emplace(std::pair{s0, d0}, std::move(path)).first;
  }
  std::vector<EdgeId> out = cached->second;
  for (EdgeId& e : out) e += shift_e;
  return out;
}

// A host-staged leg between GPU `gpu` and NIC `nic` of its node (no GPUDirect RDMA, or NCCL's
// sockets: topology/transport.hpp), through the CPU socket the GPU's PCIe switch hangs from:
// GPU -> CPU (host memory) -> NIC, or NIC -> CPU -> GPU.
using LocalPath = std::function<std::vector<EdgeId>(VertexId, VertexId)>;
static std::vector<EdgeId> staged_leg(const Topology& topo_, const LocalPath& local_path, VertexId gpu, VertexId nic, bool outbound)
{
  const InstanceSpec& spec = topo_.instance();
  const Device& g = topo_.device(gpu);
  const int sw = spec.pcie_switches;
  const VertexId cpu = topo_.cpu(g.node, (g.index * sw / spec.gpus) * spec.cpu_sockets / sw);
  std::vector<EdgeId> a = outbound ? local_path(gpu, cpu) : local_path(nic, cpu);
  const std::vector<EdgeId> b = outbound ? local_path(cpu, nic) : local_path(cpu, gpu);
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The bottleneck of a staged leg while its node stages the mirror direction at once.
static double duplex_bottleneck(const Topology& topo_, const std::vector<EdgeId>& leg, const std::vector<EdgeId>& mirror)
{
  std::map<EdgeId, int> uses;
  for (EdgeId e : leg) ++uses[e];
  for (EdgeId e : mirror) ++uses[e];
  double bw = std::numeric_limits<double>::infinity();
  for (const auto& [e, n] : uses) bw = std::min(bw, topo_.link(e).bandwidth.bytes_per_s / n);
  return bw;
}

Route Router::finish(std::vector<EdgeId> links) const
{
  Route r{std::move(links), Time{0}, Bandwidth{std::numeric_limits<double>::infinity()}};
  for (EdgeId e : r.links) {
    const Link& l = topo_.link(e);
    r.latency += l.latency;
    r.bottleneck.bytes_per_s = std::min(r.bottleneck.bytes_per_s, l.bandwidth.bytes_per_s);
  }
  return r;
}

Route Router::route(VertexId src, VertexId dst) const
{
  DDPSIM_CHECK(src != dst, "route from a device to itself");
  const Device& s = topo_.device(src);
  const Device& d = topo_.device(dst);
  if (s.node == d.node) return finish(local_path(src, dst));

  auto nic_for = [&](const Device& dev) {
    if (dev.kind == DeviceKind::gpu) return topo_.nic_of_gpu(dev.node, dev.index);
    if (dev.kind == DeviceKind::cpu)
      return topo_.nic(dev.node, dev.index * topo_.instance().nic.count / topo_.instance().cpu_sockets);
    DDPSIM_CHECK(false, "inter-node route from a " + std::string(to_string(dev.kind)));
    return VertexId{0};
  };
  const VertexId nic_s = nic_for(s), nic_d = nic_for(d);
  const bool staged = !topo_.instance().nic.gpudirect;  // host-staged (topology/transport.hpp)
  const LocalPath lp = [this](VertexId a, VertexId b) { return local_path(a, b); };
  const bool s_staged = staged && s.kind == DeviceKind::gpu, d_staged = staged && d.kind == DeviceKind::gpu;
  const std::vector<EdgeId> head = s_staged ? staged_leg(topo_, lp, src, nic_s, true) : local_path(src, nic_s);
  std::vector<EdgeId> links = head;
  const int ni_s = topo_.device(nic_s).index, ni_d = topo_.device(nic_d).index;
  links.push_back(topo_.uplink(s.node, ni_s, true));
  for (EdgeId e : topo_.fabric_links(s.node, ni_s, d.node, ni_d)) links.push_back(e);
  links.push_back(topo_.uplink(d.node, ni_d, false));
  const std::vector<EdgeId> tail = d_staged ? staged_leg(topo_, lp, dst, nic_d, false) : local_path(nic_d, dst);
  links.insert(links.end(), tail.begin(), tail.end());
  Route r = finish(std::move(links));
  if (s_staged && d_staged) {
    // NCCL's rings and trees send and receive on every node at once: while this connection stages
    // out of node s, node s stages the same bytes in (at the GPU with dst's local index), and node d
    // stages out (at src's). Links both legs cross carry twice the bytes (e.g. the PCIe switch's
    // uplink to the CPU when the GPU and the NIC share a switch).
    const VertexId in_s = topo_.gpu(s.node, d.index), out_d = topo_.gpu(d.node, s.index);
    const double cap = std::min(duplex_bottleneck(topo_, head, staged_leg(topo_, lp, in_s, topo_.nic_of_gpu(s.node, d.index), false)),
                                duplex_bottleneck(topo_, tail, staged_leg(topo_, lp, out_d, topo_.nic_of_gpu(d.node, s.index), true)));
    r.bottleneck.bytes_per_s = std::min(r.bottleneck.bytes_per_s, cap);
  }
  return r;
}

}  // namespace ddpsim
