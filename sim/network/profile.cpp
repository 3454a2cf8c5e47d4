#include "sim/network/profile.hpp"

#include <algorithm>

#include "algorithms/registry.hpp"

namespace ddpsim::sim {

Profile default_profile(const std::string& instance)
{
  Profile p;
  p.instance = instance;
  p.provenance.method = "catalog line rates, no fitted terms";
  return p;
}

int Profile::fitted_nodes() const
{
  int n = 0;
  for (const Residual& r : residuals) n = std::max(n, r.nodes);
  return n;
}

double Profile::efficiency(int nodes, bool nccl) const
{
  const double e = scope(nodes).efficiency;
  if (e <= 1) return e;
  if (!nccl) return 1.0;
  if (nodes <= 2 || fitted_nodes() != 2) return e;
  for (const Residual& r : residuals)
    if (r.nodes == 2 && (r.algorithm == "tree" || r.algorithm == "nvls")) return 1.0;
  return e;
}

std::optional<std::string> profile_algorithm(const Profile& p, bool caller_named, algo::CollectiveOp op)
{
  if (caller_named || p.provenance.algorithm == "auto") return std::nullopt;
  const algo::Algorithm* forced = algo::Registry::instance().find(p.provenance.algorithm);
  if (!forced || !forced->supports(op)) return std::nullopt;
  return p.provenance.algorithm;
}

}  // namespace ddpsim::sim
