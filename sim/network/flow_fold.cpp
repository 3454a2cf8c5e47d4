#include "sim/network/flow_fold.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/error.hpp"

namespace ddpsim::sim {

// Symmetric when every symmetry period sends the flows period 0 sends, shifted by whole periods,
// with the same bytes up to the remainder of an uneven split (at most one byte per step, or 1e-6
// of the flow). Each period-0 flow is then given the largest bytes of its copies, so where nothing
// is shared the folded phase ends exactly when the slowest copy would.
std::optional<FoldedBytes> symmetric(const Topology& topo, const std::vector<CollectiveJob>& jobs)
{
  const int periods = topo.symmetry_periods();
  if (periods <= 1) return std::nullopt;
  using Sig = std::tuple<int, VertexId, VertexId, std::int64_t, std::uint64_t, std::size_t>;
  FoldedBytes out;
  for (const CollectiveJob& job : jobs) {
    out.emplace_back();
    for (const algo::Phase& phase : job.schedule.phases) {
      std::vector<std::vector<Sig>> per(static_cast<std::size_t>(periods));
      for (std::size_t i = 0; i < phase.flows.size(); ++i) {
        const algo::Flow& f = phase.flows[i];
        const int p = topo.period_of(f.src);
        if (p < 0 || topo.period_of(f.dst) < 0) return std::nullopt;
        per[static_cast<std::size_t>(p)].emplace_back(static_cast<int>(f.kind), topo.shift_vertex(f.src, -p),
                                                      topo.shift_vertex(f.dst, -p), f.step_overhead.ps, f.bytes.n, i);
      }
      for (auto& v : per) std::sort(v.begin(), v.end());
      std::vector<Bytes> bytes(phase.flows.size());
      for (const Sig& s : per[0]) bytes[std::get<5>(s)] = Bytes{std::get<4>(s)};
      for (std::size_t p = 1; p < per.size(); ++p) {
        if (per[p].size() != per[0].size()) return std::nullopt;
        for (std::size_t k = 0; k < per[0].size(); ++k) {
          const Sig &a = per[0][k], &b = per[p][k];
          if (std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a), std::get<3>(a)) !=
              std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b), std::get<3>(b)))
            return std::nullopt;
          const std::uint64_t lo = std::min(std::get<4>(a), std::get<4>(b)), hi = std::max(std::get<4>(a), std::get<4>(b));
          const auto slack = std::max<std::uint64_t>(static_cast<std::uint64_t>(phase.steps),
                                                     static_cast<std::uint64_t>(1e-6 * static_cast<double>(hi)));
          if (hi - lo > slack) return std::nullopt;
          Bytes& folded = bytes[std::get<5>(a)];
          folded = std::max(folded, Bytes{std::get<4>(b)});
        }
      }
      out.back().push_back(std::move(bytes));
    }
  }
  return out;
}

}  // namespace ddpsim::sim
