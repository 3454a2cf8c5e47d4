#include "topology/topology.hpp"

#include "core/error.hpp"

namespace ddpsim {

std::string_view to_string(DeviceKind k)
{
  switch (k) {
    case DeviceKind::gpu: return "gpu";
    case DeviceKind::nvswitch: return "nvswitch";
    case DeviceKind::pcie_switch: return "pcie";
    case DeviceKind::cpu: return "cpu";
    case DeviceKind::nic: return "nic";
    case DeviceKind::fabric_switch: return "switch";
  }
  return "?";
}

std::string_view to_string(LinkClass c)
{
  switch (c) {
    case LinkClass::nvlink: return "nvlink";
    case LinkClass::nvswitch: return "nvswitch";
    case LinkClass::pcie: return "pcie";
    case LinkClass::cpu_interconnect: return "cpu-interconnect";
    case LinkClass::nic: return "nic";
    case LinkClass::fabric: return "fabric";
  }
  return "?";
}

// Per node, in this order: GPUs, NVSwitch (if any), PCIe switches, CPU sockets, NICs.
Topology::Topology(InstanceSpec spec, int nodes, int gpus_per_node, FabricSpec fabric)
    : spec_(std::move(spec)), nodes_(nodes), gpus_per_node_(gpus_per_node), fabric_(fabric)
{
  DDPSIM_CHECK(nodes_ >= 1, "a topology needs at least one node");
  DDPSIM_CHECK(gpus_per_node_ >= 1 && gpus_per_node_ <= spec_.gpus, "gpus_per_node out of range");
  DDPSIM_CHECK(spec_.pcie_switches >= 1 && spec_.cpu_sockets >= 1 && spec_.nic.count >= 1, "instance spec incomplete");
  build_node(0);
  // Node-major blocks of equal size: reserve them all once (131,072 GPUs: 0.4 M devices, 1 M links);
  // the fabric adds at most a switch per node or NIC and its uplink.
  const std::size_t count = static_cast<std::size_t>(nodes_), nics = static_cast<std::size_t>(spec_.nic.count);
  devices_.reserve(vertices_per_node_ * count + count + nics + 1);
  links_.reserve((links_per_node_ + 2 * nics) * count + 2 * (count + nics));
  for (int n = 1; n < nodes_; ++n) build_node(n);
  build_fabric();
  if (!fabric_.degraded.empty()) apply_degradations();  // what-if (issue 12)
}

VertexId Topology::add_device(DeviceKind kind, int node, int index)
{
  devices_.push_back(Device{kind, node, index});
  return static_cast<VertexId>(devices_.size() - 1);
}

double link_efficiency(const InstanceSpec& spec, LinkClass cls)
{
  const LinkEfficiency& e = spec.efficiency;
  switch (cls) {
    case LinkClass::nvlink:
    case LinkClass::nvswitch: return e.nvlink;
    case LinkClass::pcie: return e.pcie;
    case LinkClass::cpu_interconnect: return e.cpu_interconnect;
    case LinkClass::nic:
    case LinkClass::fabric: return e.nic;
  }
  return 1;
}

// `bw` is the line rate; the link gets the achievable rate (instance.hpp, LinkEfficiency).
void Topology::add_link(LinkClass cls, VertexId a, VertexId b, Bandwidth bw, Time latency)
{
  bw.bytes_per_s *= link_efficiency(spec_, cls);
  DDPSIM_CHECK(bw.bytes_per_s > 0, "link " + device_name(a) + " - " + device_name(b) + " has no bandwidth");
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    links_.push_back(Link{cls, from, to, bw, latency});
  }
}

void Topology::build_node(int n)
{
  const VertexId base = static_cast<VertexId>(devices_.size());
  const int g = spec_.gpus;  // the whole node is built; only the first gpus_per_node are used
  for (int i = 0; i < g; ++i) add_device(DeviceKind::gpu, n, i);
  const bool has_nvswitch = spec_.intra == IntraNodeFabric::nvswitch;
  if (has_nvswitch) add_device(DeviceKind::nvswitch, n, 0);
  const VertexId pcie0 = static_cast<VertexId>(devices_.size());
  for (int i = 0; i < spec_.pcie_switches; ++i) add_device(DeviceKind::pcie_switch, n, i);
  const VertexId cpu0 = static_cast<VertexId>(devices_.size());
  for (int i = 0; i < spec_.cpu_sockets; ++i) add_device(DeviceKind::cpu, n, i);
  const VertexId nic0 = static_cast<VertexId>(devices_.size());
  for (int i = 0; i < spec_.nic.count; ++i) add_device(DeviceKind::nic, n, i);

  if (spec_.intra == IntraNodeFabric::nvlink_mesh) {
    for (const NvlinkPair& p : spec_.nvlink_pairs)
      add_link(LinkClass::nvlink, base + static_cast<VertexId>(p.a), base + static_cast<VertexId>(p.b),
               Bandwidth{spec_.nvlink_per_link.bytes_per_s * p.links}, spec_.nvlink_latency);
  } else if (has_nvswitch) {
    // The NVSwitch plane adds a hop: each GPU-to-switch link carries half the GPU-to-GPU latency.
    for (int i = 0; i < g; ++i)
      add_link(LinkClass::nvswitch, base + static_cast<VertexId>(i), base + static_cast<VertexId>(g),
               spec_.nvswitch_per_gpu, Time{spec_.nvlink_latency.ps / 2});
  }
  const int sw = spec_.pcie_switches;
  for (int i = 0; i < g; ++i)
    add_link(LinkClass::pcie, base + static_cast<VertexId>(i), pcie0 + static_cast<VertexId>(i * sw / g), spec_.pcie,
             spec_.pcie_latency);
  for (int s = 0; s < sw; ++s)
    add_link(LinkClass::pcie, pcie0 + static_cast<VertexId>(s), cpu0 + static_cast<VertexId>(s * spec_.cpu_sockets / sw),
             spec_.pcie, spec_.pcie_latency);
  for (int c = 0; c + 1 < spec_.cpu_sockets; ++c)
    add_link(LinkClass::cpu_interconnect, cpu0 + static_cast<VertexId>(c), cpu0 + static_cast<VertexId>(c + 1),
             spec_.cpu_interconnect, spec_.pcie_latency);
  for (int i = 0; i < spec_.nic.count; ++i)
    add_link(LinkClass::pcie, nic0 + static_cast<VertexId>(i), pcie0 + static_cast<VertexId>(i * sw / spec_.nic.count),
             spec_.pcie, spec_.pcie_latency);
  if (n == 0) {
    vertices_per_node_ = devices_.size();
    links_per_node_ = links_.size();
  }
}

VertexId Topology::gpu(int node, int local) const
{
  DDPSIM_CHECK(node >= 0 && node < nodes_ && local >= 0 && local < gpus_per_node_, "GPU index out of range");
  return static_cast<VertexId>(static_cast<std::size_t>(node) * vertices_per_node_ + static_cast<std::size_t>(local));
}

VertexId Topology::cpu(int node, int socket) const
{
  DDPSIM_CHECK(socket >= 0 && socket < spec_.cpu_sockets, "CPU socket out of range");
  std::size_t off = static_cast<std::size_t>(spec_.gpus + (spec_.intra == IntraNodeFabric::nvswitch ? 1 : 0) +
                                             spec_.pcie_switches + socket);
  return static_cast<VertexId>(static_cast<std::size_t>(node) * vertices_per_node_ + off);
}

VertexId Topology::nic(int node, int index) const
{
  DDPSIM_CHECK(index >= 0 && index < spec_.nic.count, "NIC index out of range");
  return cpu(node, 0) + static_cast<VertexId>(spec_.cpu_sockets + index);
}

// GPUs share NICs evenly, in order: with 8 GPUs and 4 NICs, GPUs 0-1 use NIC 0 (the one on their
// PCIe switch); with one NIC every GPU uses it.
VertexId Topology::nic_of_gpu(int node, int local) const { return nic(node, local * spec_.nic.count / spec_.gpus); }

EdgeId Topology::uplink(int node, int nic_index, bool up) const
{
  return first_uplink_ + static_cast<EdgeId>(2 * (node * spec_.nic.count + nic_index) + (up ? 0 : 1));
}

std::string Topology::device_name(VertexId v) const
{
  const Device& d = devices_.at(v);
  std::string name = d.node >= 0 ? "node" + std::to_string(d.node) + "/" : "";
  return name + std::string(to_string(d.kind)) + std::to_string(d.index);
}

}  // namespace ddpsim
