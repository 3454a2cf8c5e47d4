// The cluster as a Boost.Graph graph: devices are vertices, each physical link is two directed
// edges (one per direction, each with its own bandwidth), so full-duplex links never share
// capacity between directions. Vertices and edges are laid out node-major: node n owns a
// contiguous block of each, which lets routes computed once for node 0 be shifted to any node.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "topology/instance.hpp"

namespace ddpsim {

using VertexId = std::uint32_t;
using EdgeId = std::uint32_t;

enum class DeviceKind { gpu, nvswitch, pcie_switch, cpu, nic, fabric_switch };
enum class LinkClass { nvlink, nvswitch, pcie, cpu_interconnect, nic, fabric };
std::string_view to_string(DeviceKind k);
std::string_view to_string(LinkClass c);

struct Device {
  DeviceKind kind = DeviceKind::gpu;
  int node = -1;   // -1 for fabric devices
  int index = 0;   // index among devices of this kind in its node (GPU 0..7, NIC 0..3, ...)
};

struct Link {
  LinkClass cls = LinkClass::nvlink;
  VertexId from = 0, to = 0;
  Bandwidth bandwidth;  // this direction
  Time latency;
};

enum class FabricKind { single_switch };
struct FabricSpec {
  FabricKind kind = FabricKind::single_switch;
  Time switch_latency{0};  // added to each NIC uplink's own latency
};

class Topology {
 public:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property,
                                      boost::property<boost::edge_index_t, EdgeId>>;

  // Builds `nodes` instances of `spec` on `fabric`. `gpus_per_node` (1..spec.gpus) uses the
  // first GPUs of each node, as CUDA_VISIBLE_DEVICES would.
  Topology(InstanceSpec spec, int nodes, int gpus_per_node, FabricSpec fabric = {});

  const InstanceSpec& instance() const { return spec_; }
  int nodes() const { return nodes_; }
  int gpus_per_node() const { return gpus_per_node_; }
  int gpu_count() const { return nodes_ * gpus_per_node_; }

  // GPU g of node n (g < gpus_per_node()), its host CPU socket and the NIC it uses.
  VertexId gpu(int node, int local) const;
  VertexId cpu(int node, int socket) const;
  VertexId nic(int node, int index) const;
  VertexId nic_of_gpu(int node, int local) const;

  const Device& device(VertexId v) const { return devices_[v]; }
  const Link& link(EdgeId e) const { return links_[e]; }
  std::size_t device_count() const { return devices_.size(); }
  std::size_t link_count() const { return links_.size(); }
  const Graph& graph() const { return graph_; }
  std::string device_name(VertexId v) const;

  // Node-major layout: node n's devices are [n*vertices_per_node, (n+1)*vertices_per_node) and
  // its internal links [n*links_per_node, (n+1)*links_per_node); NIC uplinks come after.
  std::size_t vertices_per_node() const { return vertices_per_node_; }
  std::size_t links_per_node() const { return links_per_node_; }
  // The NIC-to-fabric link of NIC `nic_index` on `node`: up (towards the fabric) or down.
  EdgeId uplink(int node, int nic_index, bool up) const;

 private:
  VertexId add_device(DeviceKind kind, int node, int index);
  void add_link(LinkClass cls, VertexId a, VertexId b, Bandwidth bw, Time latency);  // both directions
  void build_node(int node);

  InstanceSpec spec_;
  int nodes_;
  int gpus_per_node_;
  FabricSpec fabric_;
  std::vector<Device> devices_;
  std::vector<Link> links_;
  Graph graph_;
  std::size_t vertices_per_node_ = 0;
  std::size_t links_per_node_ = 0;
  VertexId fabric_switch_ = 0;
  EdgeId first_uplink_ = 0;
};

}  // namespace ddpsim
