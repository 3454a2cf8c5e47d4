#include "topology/rings.hpp"

#include <algorithm>
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

}  // namespace ddpsim
