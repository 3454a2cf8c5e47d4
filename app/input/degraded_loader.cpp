#include "app/input/degraded_loader.hpp"

#include <cmath>

namespace ddpsim::app {

void read_degraded(Reader& r, const YAML::Node& n, const InstanceSpec& inst, FabricSpec& fabric)
{
  const std::string path = "cluster.degraded";
  if (!n.IsSequence()) {
    r.error(n, path, "expected a list, e.g. [{link: nic, node: 3, rate: 0.5}]");
    return;
  }
  for (std::size_t i = 0; i < n.size(); ++i) {
    const YAML::Node e = n[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    if (!r.expect_map(e, p)) continue;
    const auto kind = r.choice(e, p, "link", true, {"nic", "nvlink", "spine_uplink"});
    if (!kind) continue;
    Degradation d;
    if (*kind == "nic") {
      r.allow_keys(e, p, {"link", "node", "nic", "rate"});
      d.kind = DegradedKind::nic;
      d.node = static_cast<int>(r.integer(e, p, "node", true, 0, 1 << 20).value_or(0));
      if (auto k = r.integer(e, p, "nic", false, 0, 1 << 10)) {
        d.nic = static_cast<int>(*k);
        if (inst.nic.count > 0 && d.nic >= inst.nic.count)
          r.error(e["nic"], p + ".nic", inst.name + " has " + std::to_string(inst.nic.count) + " NIC(s)");
      }
      d.rate = r.number(e, p, "rate", true, 1e-6, 1).value_or(1);
    } else if (*kind == "nvlink") {
      r.allow_keys(e, p, {"link", "node", "gpus", "lanes_down"});
      d.kind = DegradedKind::nvlink;
      d.node = static_cast<int>(r.integer(e, p, "node", true, 0, 1 << 20).value_or(0));
      d.lanes_down = static_cast<int>(r.integer(e, p, "lanes_down", true, 1, 64).value_or(1));
      const bool mesh = inst.intra == IntraNodeFabric::nvlink_mesh;
      if (inst.intra == IntraNodeFabric::pcie_only) r.error(e, p + ".link", inst.name + " has no NVLink");
      YAML::Node g = e["gpus"];
      const std::size_t want = mesh ? 2 : 1;
      if (!g.IsDefined() || !g.IsSequence() || g.size() != want) {
        r.error(g.IsDefined() ? g : e, p + ".gpus",
                mesh ? "expected the two GPUs of an NVLink pair, e.g. [0, 1]"
                     : "expected one GPU, whose NVSwitch port loses lanes, e.g. [0]");
        continue;
      }
      std::vector<int> gpus;
      for (const YAML::Node& x : g)
        if (auto v = r.as_integer(x, p + ".gpus", 0, inst.gpus - 1)) gpus.push_back(static_cast<int>(*v));
      if (gpus.size() != want) continue;
      d.gpu_a = gpus[0];
      d.gpu_b = mesh ? gpus[1] : -1;
      if (!mesh && inst.intra == IntraNodeFabric::nvswitch) {
        // 25 GB/s per NVLink 3/4 lane (topology/degraded.cpp): 12 lanes per A100, 18 per H100.
        const long lanes = std::lround(inst.nvswitch_per_gpu.bytes_per_s / 25e9);
        if (d.lanes_down >= lanes)
          r.error(e["lanes_down"], p + ".lanes_down",
                  "GPU " + std::to_string(d.gpu_a) + " has " + std::to_string(lanes) +
                      " NVLink lanes to its NVSwitch; with all down it is cut off");
      }
      if (mesh) {
        bool pair = false;
        for (const NvlinkPair& q : inst.nvlink_pairs) pair = pair || (q.a == d.gpu_a && q.b == d.gpu_b) || (q.a == d.gpu_b && q.b == d.gpu_a);
        if (!pair)
          r.error(g, p + ".gpus",
                  "GPUs " + std::to_string(d.gpu_a) + " and " + std::to_string(d.gpu_b) + " of " + inst.name +
                      " have no NVLink between them");
      }
    } else {
      r.allow_keys(e, p, {"link", "leaf", "down", "rate"});
      d.kind = DegradedKind::spine_uplink;
      if (fabric.kind != FabricKind::leaf_spine) r.error(e["link"], p + ".link", "needs cluster.fabric.kind: leaf_spine");
      d.leaf = static_cast<int>(r.integer(e, p, "leaf", true, 0, 1 << 20).value_or(0));
      // down: true (one uplink) or a count; rate: the remaining share of the leaf's uplinks.
      if (YAML::Node down = e["down"]; down.IsDefined()) {
        if (down.IsScalar() && (down.Scalar() == "true" || down.Scalar() == "false"))
          d.uplinks_down = down.Scalar() == "true" ? 1 : 0;
        else if (auto v = r.as_integer(down, p + ".down", 0, 1024))
          d.uplinks_down = static_cast<int>(*v);
        if (d.uplinks_down >= fabric.spine_uplinks)
          r.error(down, p + ".down",
                  "the leaf has " + std::to_string(fabric.spine_uplinks) +
                      " spine uplink(s) (cluster.fabric.spine_uplinks); it would be cut off");
      }
      d.rate = r.number(e, p, "rate", false, 1e-6, 1).value_or(1);
      if (!e["down"].IsDefined() && !e["rate"].IsDefined()) r.error(e, p + ".down", "give down: N or rate: x");
    }
    fabric.degraded.push_back(d);
  }
}

}  // namespace ddpsim::app
