#include "sim/study/whatif.hpp"


namespace ddpsim::sim {
namespace {

std::string describe(const Degradation& d)
{
  auto pct = [](double x) { return std::to_string(static_cast<int>(x * 100 + 0.5)) + "%"; };
  switch (d.kind) {
    case DegradedKind::nic:
      return "node " + std::to_string(d.node) + (d.nic < 0 ? " NICs" : " NIC " + std::to_string(d.nic)) + " at " + pct(d.rate);
    case DegradedKind::nvlink:
      return "node " + std::to_string(d.node) + " NVLink GPU " + std::to_string(d.gpu_a) +
             (d.gpu_b >= 0 ? "-GPU " + std::to_string(d.gpu_b) : "-NVSwitch") + " " + std::to_string(d.lanes_down) +
             " lane(s) down";
    case DegradedKind::spine_uplink:
      return "leaf " + std::to_string(d.leaf) + " spine uplinks: " + std::to_string(d.uplinks_down) + " down" +
             (d.rate < 1 ? ", rest at " + pct(d.rate) : "");
  }
  return "?";
}

}  // namespace

void apply_whatifs(const ScenarioSpec& spec, ConfigResult& r)
{
  // Degraded links were applied when the topology was built; say which ones this size has.
  const FabricSpec& f = spec.cluster.fabric;
  const int leaves = f.nodes_per_leaf > 0 ? (r.nodes + f.nodes_per_leaf - 1) / f.nodes_per_leaf : 1;
  for (const Degradation& d : f.degraded) {
    const bool applies = d.kind == DegradedKind::spine_uplink ? d.leaf < leaves : d.node < r.nodes;
    if (applies) r.degraded.push_back(describe(d));
    else r.warnings.push_back("degraded link not present at this size: " + describe(d));
  }
}

}  // namespace ddpsim::sim
