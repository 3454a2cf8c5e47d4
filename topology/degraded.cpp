// What-if: links below their rate or down (FabricSpec::degraded; docs/whatif.md). Every change is
// to the graph's own links, so both network engines and the router see the same degraded cluster.
#include <cmath>

#include "core/error.hpp"
#include "topology/topology.hpp"

namespace ddpsim {

namespace {
// NVLink 3 and 4 lanes carry 25 GB/s per direction each (NVIDIA/nccl-tests#149: 12 per A100;
// 18 per H100 = 450 GB/s), which gives the lane count of an NVSwitch port.
constexpr double kNvlinkLaneBytesPerS = 25e9;
}  // namespace

void Topology::scale_link_pair(EdgeId e, double factor)
{
  // add_link appends both directions together, so a physical link is the edge pair (2k, 2k+1).
  for (EdgeId id : {e, e ^ 1u}) links_.at(id).bandwidth.bytes_per_s *= factor;
}

void Topology::apply_degradations()
{
  irregular_.assign(static_cast<std::size_t>(nodes_), false);
  for (const Degradation& d : fabric_.degraded) {
    switch (d.kind) {
      case DegradedKind::nic: {
        if (d.node < 0 || d.node >= nodes_) continue;
        DDPSIM_CHECK(d.rate > 0 && d.rate <= 1, "NIC rate out of (0, 1]");
        for (int i = 0; i < spec_.nic.count; ++i)
          if (d.nic < 0 || d.nic == i) scale_link_pair(uplink(d.node, i, true), d.rate);
        break;
      }
      case DegradedKind::nvlink: {
        if (d.node < 0 || d.node >= nodes_) continue;
        const VertexId base = static_cast<VertexId>(static_cast<std::size_t>(d.node) * vertices_per_node_);
        const EdgeId first = static_cast<EdgeId>(static_cast<std::size_t>(d.node) * links_per_node_);
        bool found = false;
        for (EdgeId e = first; e < first + links_per_node_; e += 2) {
          Link& l = links_[e];
          if (spec_.intra == IntraNodeFabric::nvlink_mesh && l.cls == LinkClass::nvlink) {
            const VertexId a = base + static_cast<VertexId>(d.gpu_a), b = base + static_cast<VertexId>(d.gpu_b);
            if (!((l.from == a && l.to == b) || (l.from == b && l.to == a))) continue;
            int lanes = 0;
            for (const NvlinkPair& p : spec_.nvlink_pairs)
              if ((p.a == d.gpu_a && p.b == d.gpu_b) || (p.a == d.gpu_b && p.b == d.gpu_a)) lanes = p.links;
            DDPSIM_CHECK(lanes > 0, "NVLink pair without lanes");
            if (d.lanes_down >= lanes)
              for (EdgeId id : {e, e ^ 1u}) links_[id].down = true;  // routes go around it (PCIe, CPU)
            else
              scale_link_pair(e, static_cast<double>(lanes - d.lanes_down) / lanes);
            found = true;
          } else if (spec_.intra == IntraNodeFabric::nvswitch && l.cls == LinkClass::nvswitch &&
                     l.from == base + static_cast<VertexId>(d.gpu_a)) {
            const int lanes = static_cast<int>(std::lround(spec_.nvswitch_per_gpu.bytes_per_s / kNvlinkLaneBytesPerS));
            if (d.lanes_down >= lanes)
              throw UserError("cluster.degraded: GPU " + std::to_string(d.gpu_a) + " of node " + std::to_string(d.node) +
                              " has only " + std::to_string(lanes) + " NVLink lanes to its NVSwitch; with all down it is cut off");
            scale_link_pair(e, static_cast<double>(lanes - d.lanes_down) / lanes);
            found = true;
          }
        }
        if (!found)
          throw UserError("cluster.degraded: node " + std::to_string(d.node) + " has no NVLink between GPU " +
                          std::to_string(d.gpu_a) + (d.gpu_b >= 0 ? " and GPU " + std::to_string(d.gpu_b) : " and its NVSwitch"));
        irregular_[static_cast<std::size_t>(d.node)] = true;
        break;
      }
      case DegradedKind::spine_uplink: {
        DDPSIM_CHECK(fabric_.kind == FabricKind::leaf_spine, "spine_uplink degradation without a leaf/spine fabric");
        const int leaves = (nodes_ + fabric_.nodes_per_leaf - 1) / fabric_.nodes_per_leaf;
        if (d.leaf < 0 || d.leaf >= leaves) continue;
        const int u = fabric_.spine_uplinks;
        if (d.uplinks_down >= u)
          throw UserError("cluster.degraded: leaf " + std::to_string(d.leaf) + " has " + std::to_string(u) +
                          " spine uplink(s) (cluster.fabric.spine_uplinks); with all down it is cut off");
        // ECMP spreads the leaf's traffic over the uplinks left: the aggregate shrinks with them.
        scale_link_pair(first_fabric_link_ + static_cast<EdgeId>(2 * d.leaf), d.rate * (u - d.uplinks_down) / u);
        break;
      }
    }
    ++degradations_applied_;
  }
}

}  // namespace ddpsim
