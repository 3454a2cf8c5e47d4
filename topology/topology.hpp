// The cluster: devices and links, each physical link two directed links (one per direction, each
// with its own bandwidth), so full-duplex links never share capacity between directions. Vertices
// and links are laid out node-major: node n owns a contiguous block of each, which lets routes
// computed once for node 0 be shifted to any node. The router searches one node's links as a
// Boost.Graph graph (topology/routing.hpp); the whole cluster is never one graph (issue 21: a
// 131,072-GPU graph cost a quarter of a scenario's run in allocations).
#pragma once

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
// The achievable fraction of line rate of links of class `cls` on `spec` (LinkEfficiency).
double link_efficiency(const InstanceSpec& spec, LinkClass cls);

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
  bool down = false;    // what-if: failed (routes avoid it; its bandwidth is meaningless)
};

// How the nodes' NICs are connected.
//   single_switch: one non-blocking switch.
//   leaf_spine: `nodes_per_leaf` nodes under each leaf switch; each leaf reaches a non-blocking
//     spine through one aggregate uplink of (its NICs' bandwidth) / oversubscription, so traffic
//     between leaves shares it. Leaf-to-spine hops add switch_latency each way.
//   rail: one switch per NIC index ("rail"), as in rail-optimised clusters: NIC i of every node on
//     rail i; traffic between rails crosses a non-blocking spine (switch_latency per hop).
enum class FabricKind { single_switch, leaf_spine, rail };
std::string_view to_string(FabricKind k);

// What-if (scenario `cluster.degraded`, docs/whatif.md): a link below its rate or down. Applied
// when the topology is built (topology/degraded.cpp); entries naming a node or leaf the topology
// does not have are skipped (a smaller configuration of the same scenario).
enum class DegradedKind { nic, nvlink, spine_uplink };
struct Degradation {
  DegradedKind kind = DegradedKind::nic;
  int node = -1;               // nic, nvlink
  int nic = -1;                // nic: one NIC, or -1 for every NIC of the node
  int gpu_a = -1, gpu_b = -1;  // nvlink: the pair (NVLink mesh); on NVSwitch, gpu_a's port (gpu_b -1)
  int lanes_down = 0;          // nvlink: NVLink lanes (bricks) lost
  int leaf = -1;               // spine_uplink
  int uplinks_down = 0;        // spine_uplink: how many of the leaf's fabric.spine_uplinks are down
  double rate = 1;             // nic, spine_uplink: remaining share of the rate, (0, 1]
};

struct FabricSpec {
  FabricKind kind = FabricKind::single_switch;
  Time switch_latency{0};  // added to each NIC uplink's own latency
  int nodes_per_leaf = 0;        // leaf_spine only
  double oversubscription = 1;   // leaf_spine only: leaf downlink bandwidth / uplink bandwidth (>= 1)
  // The switches reduce (InfiniBand SHARP): enables the `sharp` all-reduce (CollNet).
  bool in_network_reduction = false;
  // leaf_spine only: the leaf's aggregate uplink stands for this many equal parallel uplinks
  // (one per spine switch), balanced perfectly by ECMP; only matters when some are down.
  int spine_uplinks = 1;
  std::vector<Degradation> degraded;  // what-if: faulty links (see Degradation)
};

class Topology {
 public:
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
  std::string device_name(VertexId v) const;

  // Node-major layout: node n's devices are [n*vertices_per_node, (n+1)*vertices_per_node) and
  // its internal links [n*links_per_node, (n+1)*links_per_node); NIC uplinks come after.
  std::size_t vertices_per_node() const { return vertices_per_node_; }
  std::size_t links_per_node() const { return links_per_node_; }
  // The NIC-to-fabric link of NIC `nic_index` on `node`: up (towards the fabric) or down.
  EdgeId uplink(int node, int nic_index, bool up) const;
  // Fabric links between the uplink of (src_node, src_nic) and the downlink of (dst_node, dst_nic)
  // (empty on a single switch or within a leaf/rail).
  std::vector<EdgeId> fabric_links(int src_node, int src_nic, int dst_node, int dst_nic) const;
  const FabricSpec& fabric() const { return fabric_; }
  // False when a degradation touches the node's internal links (its routes differ from node 0's).
  bool node_regular(int node) const { return irregular_.empty() || !irregular_.at(static_cast<std::size_t>(node)); }
  // How many entries of fabric().degraded applied to this topology.
  int degradations_applied() const { return degradations_applied_; }

  // Symmetry: the nodes split into periods of period_nodes() consecutive nodes (one node, or one
  // leaf) that are wired identically. symmetry_periods() is how many (1 when they are not all
  // alike, e.g. a partial last leaf). Shifting a device by whole periods, or folding it or a link
  // onto period 0, maps it to its identically wired copy; fabric links shared by all periods
  // (rail spine hops) fold onto themselves.
  int period_nodes() const;
  int symmetry_periods() const;
  int period_of(VertexId v) const;  // -1 for fabric devices
  VertexId shift_vertex(VertexId v, int periods) const;
  VertexId fold_vertex(VertexId v) const;
  EdgeId fold_link(EdgeId e) const;

 private:
  VertexId add_device(DeviceKind kind, int node, int index);
  void add_link(LinkClass cls, VertexId a, VertexId b, Bandwidth bw, Time latency);  // both directions; bw = line rate
  void build_node(int node);

  InstanceSpec spec_;
  int nodes_;
  int gpus_per_node_;
  FabricSpec fabric_;
  std::vector<Device> devices_;
  std::vector<Link> links_;
  std::size_t vertices_per_node_ = 0;
  std::size_t links_per_node_ = 0;
  VertexId first_switch_ = 0;
  EdgeId first_uplink_ = 0;
  EdgeId first_fabric_link_ = 0;  // after the uplinks: two per leaf (leaf_spine) or per rail (rail)
  void build_fabric();
  void apply_degradations();  // topology/degraded.cpp
  void scale_link_pair(EdgeId up, double factor);  // both directions of a physical link
  std::vector<bool> irregular_;
  int degradations_applied_ = 0;
};

}  // namespace ddpsim
