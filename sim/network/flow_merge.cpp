#include "sim/network/flow_merge.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace ddpsim::sim {

std::size_t merge_isolated(FlowGraph& g, const std::vector<std::uint32_t>& items, std::vector<std::uint32_t>& scratch)
{
  if (scratch.size() < g.links.size()) scratch.resize(g.links.size(), 0);
  for (std::uint32_t i : items)
    if (g.items[i].route >= 0)
      for (std::uint32_t l : g.routes[static_cast<std::size_t>(g.items[i].route)]) ++scratch[l];
  // Twins: same deps, same bytes, same bottleneck (its bits: the comparison is exact).
  using Key = std::tuple<std::vector<std::uint32_t>, std::uint64_t, std::uint64_t>;
  std::map<Key, std::uint32_t> first;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> merged;  // (item, its twin)
  for (std::uint32_t i : items) {
    const FlowGraph::Item& item = g.items[i];
    if (item.route < 0 || item.bytes == 0) continue;
    const std::vector<std::uint32_t>& path = g.routes[static_cast<std::size_t>(item.route)];
    bool alone = true;
    double bottleneck = 0;
    for (std::size_t k = 0; k < path.size(); ++k) {
      const FlowGraph::Link& link = g.links[path[k]];
      // Shared with another flow of the phase (or crossed twice), or a link with a latency: not alone.
      if (scratch[path[k]] != 1 || link.latency != 0 || link.fatpipe) alone = false;
      bottleneck = k == 0 ? link.bandwidth : std::min(bottleneck, link.bandwidth);
    }
    if (!alone || path.empty()) continue;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &bottleneck, sizeof bits);
    const auto [it, fresh] = first.try_emplace(Key{item.deps, item.bytes, bits}, i);
    if (!fresh) merged.emplace_back(i, it->second);
  }
  for (std::uint32_t i : items)
    if (g.items[i].route >= 0)
      for (std::uint32_t l : g.routes[static_cast<std::size_t>(g.items[i].route)]) scratch[l] = 0;
  for (const auto& [i, twin] : merged) g.items[i] = FlowGraph::Item{-1, 0, {twin}};
  return merged.size();
}

}  // namespace ddpsim::sim
