#include "topology/rings.hpp"

#include <algorithm>
#include <numeric>

namespace ddpsim {

std::vector<int> local_ring_order(const Topology& topo, const Router& router)
{
  const int g = topo.gpus_per_node();
  std::vector<int> order(static_cast<std::size_t>(g));
  std::iota(order.begin(), order.end(), 0);
  if (g <= 2) return order;
  // Widest-bottleneck Hamiltonian cycle by exhaustive search: GPU 0 first, at most 7! orders.
  std::vector<std::vector<double>> bw(static_cast<std::size_t>(g), std::vector<double>(static_cast<std::size_t>(g), 0));
  for (int a = 0; a < g; ++a)
    for (int b = 0; b < g; ++b)
      if (a != b) bw[a][b] = router.route(topo.gpu(0, a), topo.gpu(0, b)).bottleneck.bytes_per_s;
  std::vector<int> best = order;
  double best_min = -1, best_sum = -1;
  do {
    double mn = 1e300, sum = 0;
    for (int i = 0; i < g; ++i) {
      double b = bw[order[i]][order[(i + 1) % g]];
      mn = std::min(mn, b);
      sum += b;
    }
    // Ties go to the larger total, then to the first found (lexicographic): deterministic.
    if (mn > best_min || (mn == best_min && sum > best_sum)) {
      best_min = mn;
      best_sum = sum;
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
