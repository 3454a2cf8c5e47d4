#include "sim/network/profile.hpp"

#include "algorithms/registry.hpp"

namespace ddpsim::sim {

Profile default_profile(const std::string& instance)
{
  Profile p;
  p.instance = instance;
  p.provenance.method = "catalog line rates, no fitted terms";
  return p;
}

std::optional<std::string> profile_algorithm(const Profile& p, bool caller_named, algo::CollectiveOp op)
{
  if (caller_named || p.provenance.algorithm == "auto") return std::nullopt;
  const algo::Algorithm* forced = algo::Registry::instance().find(p.provenance.algorithm);
  if (!forced || !forced->supports(op)) return std::nullopt;
  return p.provenance.algorithm;
}

}  // namespace ddpsim::sim
