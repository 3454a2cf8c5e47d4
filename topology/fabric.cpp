// The fabric between the nodes' NICs (see FabricSpec) and the symmetry it has.
#include "core/error.hpp"
#include "topology/topology.hpp"

namespace ddpsim {

std::string_view to_string(FabricKind k)
{
  switch (k) {
    case FabricKind::single_switch: return "single_switch";
    case FabricKind::leaf_spine: return "leaf_spine";
    case FabricKind::rail: return "rail";
  }
  return "?";
}

// Switch devices after the nodes: single_switch: one; leaf_spine: one per leaf, then the spine;
// rail: one per rail, then the spine. Then the NIC uplinks (two edges per NIC, node-major), then
// the leaf or rail uplinks to the spine (two edges each).
void Topology::build_fabric()
{
  const int nics = spec_.nic.count;
  int leaves = 1;
  if (fabric_.kind == FabricKind::leaf_spine) {
    DDPSIM_CHECK(fabric_.nodes_per_leaf >= 1 && fabric_.oversubscription >= 1, "leaf/spine fabric parameters");
    leaves = (nodes_ + fabric_.nodes_per_leaf - 1) / fabric_.nodes_per_leaf;
  }
  const int lower = fabric_.kind == FabricKind::leaf_spine ? leaves : fabric_.kind == FabricKind::rail ? nics : 1;
  first_switch_ = static_cast<VertexId>(devices_.size());
  for (int s = 0; s < lower; ++s) add_device(DeviceKind::fabric_switch, -1, s);
  const VertexId spine = fabric_.kind == FabricKind::single_switch ? first_switch_
                                                                   : add_device(DeviceKind::fabric_switch, -1, lower);
  first_uplink_ = static_cast<EdgeId>(links_.size());
  const Time uplink_latency = Time{spec_.nic.latency.ps / 2} + fabric_.switch_latency;
  for (int n = 0; n < nodes_; ++n)
    for (int i = 0; i < nics; ++i) {
      int sw = 0;
      if (fabric_.kind == FabricKind::leaf_spine) sw = n / fabric_.nodes_per_leaf;
      if (fabric_.kind == FabricKind::rail) sw = i;
      add_link(LinkClass::nic, nic(n, i), first_switch_ + static_cast<VertexId>(sw), spec_.nic.bandwidth, uplink_latency);
    }
  first_fabric_link_ = static_cast<EdgeId>(links_.size());
  if (fabric_.kind == FabricKind::leaf_spine) {
    // A full leaf's NIC bandwidth over the oversubscription ratio, whatever the leaf's fill.
    const Bandwidth up{spec_.nic.bandwidth.bytes_per_s * nics * fabric_.nodes_per_leaf / fabric_.oversubscription};
    for (int l = 0; l < leaves; ++l)
      add_link(LinkClass::fabric, first_switch_ + static_cast<VertexId>(l), spine, up, fabric_.switch_latency);
  } else if (fabric_.kind == FabricKind::rail) {
    // Non-blocking: a rail's uplink carries every node's NIC on that rail at full rate.
    const Bandwidth up{spec_.nic.bandwidth.bytes_per_s * nodes_};
    for (int r = 0; r < nics; ++r)
      add_link(LinkClass::fabric, first_switch_ + static_cast<VertexId>(r), spine, up, fabric_.switch_latency);
  }
}

std::vector<EdgeId> Topology::fabric_links(int src_node, int src_nic, int dst_node, int dst_nic) const
{
  auto pair = [&](int i) { return first_fabric_link_ + static_cast<EdgeId>(2 * i); };  // up; +1 is down
  if (fabric_.kind == FabricKind::leaf_spine) {
    const int a = src_node / fabric_.nodes_per_leaf, b = dst_node / fabric_.nodes_per_leaf;
    if (a != b) return {pair(a), pair(b) + 1};
  } else if (fabric_.kind == FabricKind::rail && src_nic != dst_nic) {
    return {pair(src_nic), pair(dst_nic) + 1};
  }
  return {};
}

int Topology::period_nodes() const { return fabric_.kind == FabricKind::leaf_spine ? fabric_.nodes_per_leaf : 1; }

int Topology::symmetry_periods() const
{
  const int pn = period_nodes();
  // A degraded link makes its period unlike the others: no folding (every rank simulated).
  if (degradations_applied_ > 0) return 1;
  return nodes_ % pn == 0 ? nodes_ / pn : 1;
}

int Topology::period_of(VertexId v) const
{
  const int node = devices_.at(v).node;
  return node < 0 ? -1 : node / period_nodes();
}

VertexId Topology::shift_vertex(VertexId v, int periods) const
{
  const int node = devices_.at(v).node;
  DDPSIM_CHECK(node >= 0, "shifting a fabric device");
  const int to = ((node + periods * period_nodes()) % nodes_ + nodes_) % nodes_;
  return static_cast<VertexId>(static_cast<std::int64_t>(v) + static_cast<std::int64_t>(to - node) *
                                                                static_cast<std::int64_t>(vertices_per_node_));
}

VertexId Topology::fold_vertex(VertexId v) const
{
  const int node = devices_.at(v).node;
  return node < 0 ? v : shift_vertex(v, -(node / period_nodes()));
}

EdgeId Topology::fold_link(EdgeId e) const
{
  const std::size_t pn = static_cast<std::size_t>(period_nodes());
  const std::size_t internal = static_cast<std::size_t>(nodes_) * links_per_node_;
  if (e < internal) return static_cast<EdgeId>((e / links_per_node_ % pn) * links_per_node_ + e % links_per_node_);
  if (e < first_fabric_link_) {
    const std::size_t per_node = 2 * static_cast<std::size_t>(spec_.nic.count);
    const std::size_t i = e - first_uplink_;
    return first_uplink_ + static_cast<EdgeId>((i / per_node % pn) * per_node + i % per_node);
  }
  // Leaf uplinks: every leaf is a period, so all fold onto leaf 0's; rail uplinks are shared.
  if (fabric_.kind == FabricKind::leaf_spine) return first_fabric_link_ + (e - first_fabric_link_) % 2;
  return e;
}

}  // namespace ddpsim
