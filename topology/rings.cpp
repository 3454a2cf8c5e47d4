#include "topology/rings.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <tuple>

namespace ddpsim {
namespace {

// How good a local order is, compared lexicographically (larger is better):
//   1. the narrowest hop: the ring's intra-node hops and, across nodes, each channel's exit from
//      this node to the next one's entry (its route's bottleneck, divided by how many channels
//      leave through the same NIC);
//   2. fewer channel exits or entries that cross the CPU interconnect (NCCL's search keeps a ring
//      on the PCIe switch of its NIC: NVIDIA/nccl src/graph/search.cc, ncclTopoSearchTryGpu /
//      ncclTopoSearchRecNet start and end a ring at the GPUs closest to the NET);
//   3. fewer channels that enter through another NIC than they leave (rails stay aligned);
//   4. the larger sum of intra-node hop bandwidths.
using Score = std::tuple<double, int, int, double>;

}  // namespace

int ring_channels(const Topology& topo)
{
  return topo.nodes() > 1 ? std::min(topo.instance().nic.count, topo.gpus_per_node()) : 1;
}

std::vector<int> local_ring_order(const Topology& topo, const Router& router)
{
  const int g = topo.gpus_per_node();
  std::vector<int> order(static_cast<std::size_t>(g));
  std::iota(order.begin(), order.end(), 0);
  // NIC-aware scoring for one ring across nodes (one NIC). With several channels the exits
  // interact with how channels share GPU pairs, which the per-route score does not see: on a
  // DGX-1 with 4 NICs it chose orders 2x slower than the plain widest cycle, so it is off there
  // until the score accounts for channel sharing (not done).
  const bool multi = topo.nodes() > 1 && ring_channels(topo) == 1;
  if (g <= 2 && !multi) return order;
  auto at = [](auto& m, int a, int b) -> auto& { return m[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]; };
  using Table = std::vector<std::vector<double>>;
  const Table zero(static_cast<std::size_t>(g), std::vector<double>(static_cast<std::size_t>(g), 0));
  Table bw = zero, exit_bw = zero, exit_cpu = zero, exit_rail = zero;
  for (int a = 0; a < g; ++a)
    for (int b = 0; b < g; ++b) {
      if (a != b) at(bw, a, b) = router.route(topo.gpu(0, a), topo.gpu(0, b)).bottleneck.bytes_per_s;
      if (!multi) continue;
      // A channel leaving node 0 at GPU a and entering node 1 at GPU b.
      const Route r = router.route(topo.gpu(0, a), topo.gpu(1, b));
      at(exit_bw, a, b) = r.bottleneck.bytes_per_s;
      for (EdgeId e : r.links) at(exit_cpu, a, b) += topo.link(e).cls == LinkClass::cpu_interconnect ? 1 : 0;
      at(exit_rail, a, b) = topo.device(topo.nic_of_gpu(0, a)).index != topo.device(topo.nic_of_gpu(1, b)).index;
    }
  const int channels = ring_channels(topo);
  const int nics = topo.instance().nic.count;
  // Widest Hamiltonian cycle by exhaustive search: GPU 0 first, at most 7! orders.
  std::vector<int> best = order;
  Score best_score{-1, 0, 0, -1};
  std::vector<int> nic_load(static_cast<std::size_t>(nics));
  do {
    double mn = 1e300, sum = 0;
    for (int i = 0; i < g; ++i) {
      // With one channel across nodes the hop back to the first GPU is the network hop instead.
      if (multi && channels == 1 && i == g - 1) break;
      const double b = at(bw, order[i], order[(i + 1) % g]);
      mn = std::min(mn, b);
      sum += b;
    }
    int cpu = 0, rail = 0;
    if (multi) {
      std::fill(nic_load.begin(), nic_load.end(), 0);
      auto exit_of = [&](int c) { return order[static_cast<std::size_t>((c * g / channels + g - 1) % g)]; };
      auto entry_of = [&](int c) { return order[static_cast<std::size_t>(c * g / channels)]; };
      for (int c = 0; c < channels; ++c) ++nic_load[static_cast<std::size_t>(topo.device(topo.nic_of_gpu(0, exit_of(c))).index)];
      for (int c = 0; c < channels; ++c) {
        const int a = exit_of(c), b = entry_of(c);
        const int load = nic_load[static_cast<std::size_t>(topo.device(topo.nic_of_gpu(0, a)).index)];
        mn = std::min(mn, at(exit_bw, a, b) / load);
        cpu += static_cast<int>(at(exit_cpu, a, b));
        rail += static_cast<int>(at(exit_rail, a, b));
      }
    }
    // Ties go to the first found (lexicographic order): deterministic.
    const Score score{mn, -cpu, -rail, sum};
    if (score > best_score) {
      best_score = score;
      best = order;
    }
  } while (std::next_permutation(order.begin() + 1, order.end()));
  return best;
}

std::vector<VertexId> ring_order(const Topology& topo)
{
  Router router(topo);
  const std::vector<int> local = local_ring_order(topo, router);
  std::vector<VertexId> out;
  out.reserve(static_cast<std::size_t>(topo.gpu_count()));
  for (int n = 0; n < topo.nodes(); ++n)
    for (int l : local) out.push_back(topo.gpu(n, l));
  return out;
}

namespace {

// Picks cycles from `cycles` (indices >= from, repeats allowed) while every hop has a brick
// left, depth first; keeps the longest pick in `best` and stops once it reaches `bound`.
void pick_rings(const std::vector<std::vector<int>>& cycles, std::size_t from, std::vector<std::vector<int>>& bricks,
                std::vector<std::size_t>& pick, std::vector<std::size_t>& best, std::size_t bound)
{
  if (pick.size() > best.size()) best = pick;
  if (best.size() >= bound) return;
  for (std::size_t c = from; c < cycles.size(); ++c) {
    const std::vector<int>& r = cycles[c];
    bool fits = true;
    for (std::size_t i = 0; i < r.size() && fits; ++i)
      fits = bricks[static_cast<std::size_t>(r[i])][static_cast<std::size_t>(r[(i + 1) % r.size()])] > 0;
    if (!fits) continue;
    for (std::size_t i = 0; i < r.size(); ++i) --bricks[static_cast<std::size_t>(r[i])][static_cast<std::size_t>(r[(i + 1) % r.size()])];
    pick.push_back(c);
    pick_rings(cycles, c, bricks, pick, best, bound);
    pick.pop_back();
    for (std::size_t i = 0; i < r.size(); ++i) ++bricks[static_cast<std::size_t>(r[i])][static_cast<std::size_t>(r[(i + 1) % r.size()])];
    if (best.size() >= bound) return;
  }
}

}  // namespace

std::vector<std::vector<int>> mesh_rings(const Topology& topo)
{
  const InstanceSpec& inst = topo.instance();
  const int g = topo.gpus_per_node();
  if (inst.intra != IntraNodeFabric::nvlink_mesh || topo.nodes() != 1 || g < 3) return {};
  const auto n = static_cast<std::size_t>(g);
  // bricks[a][b]: NVLink bricks from GPU a to GPU b (each direction its own).
  std::vector<std::vector<int>> bricks(n, std::vector<int>(n, 0));
  for (const NvlinkPair& p : inst.nvlink_pairs)
    if (p.a < g && p.b < g && p.a != p.b) {
      bricks[static_cast<std::size_t>(p.a)][static_cast<std::size_t>(p.b)] += p.links;
      bricks[static_cast<std::size_t>(p.b)][static_cast<std::size_t>(p.a)] += p.links;
    }
  // Every directed Hamiltonian cycle over NVLink hops, GPU 0 first, in lexicographic order.
  std::vector<std::vector<int>> cycles;
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  do {
    bool nvlink = true;
    for (std::size_t i = 0; i < n && nvlink; ++i) nvlink = bricks[static_cast<std::size_t>(order[i])][static_cast<std::size_t>(order[(i + 1) % n])] > 0;
    if (nvlink) cycles.push_back(order);
  } while (std::next_permutation(order.begin() + 1, order.end()));
  // As many rings as the bricks allow: at most the fewest bricks any GPU sends on.
  std::size_t bound = SIZE_MAX;
  for (std::size_t a = 0; a < n; ++a) bound = std::min(bound, static_cast<std::size_t>(std::accumulate(bricks[a].begin(), bricks[a].end(), 0)));
  std::vector<std::size_t> pick, best;
  if (!cycles.empty()) pick_rings(cycles, 0, bricks, pick, best, bound);
  std::vector<std::vector<int>> rings;
  for (std::size_t c : best) rings.push_back(cycles[c]);
  return rings;
}

}  // namespace ddpsim
