#include "sim/network/collective_model.hpp"

#include <cmath>

#include "algorithms/registry.hpp"
#include "core/error.hpp"
#include "topology/rings.hpp"

namespace ddpsim::sim {

// sharp only where the fabric reduces (its available()), as NCCL uses CollNet only with the plugin.
std::vector<std::string> auto_algorithms() { return {"ring", "nvls", "tree", "hierarchical", "sharp"}; }

int default_channels(const Topology& topo) { return topo.nodes() > 1 ? topo.instance().nic.count : 1; }

CostModel::CostModel(const Topology& topo, NetworkBackend& net)
    : topo_(topo), net_(net), ranks_(ring_order(topo)), channels_(default_channels(topo))
{
}

algo::Request CostModel::request(algo::CollectiveOp op, Bytes bytes) const
{
  return algo::Request{op, bytes, &topo_, ranks_, {}, channels_};
}

double CostModel::schedule_us(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes)
{
  CollectiveJob job;
  job.schedule = a.phases(request(op, bytes));
  const JobTiming t = net_.run({job}).front();
  return (t.end - t.start).us();
}

Choice CostModel::choose(algo::CollectiveOp op, Bytes bytes, std::string_view algorithm,
                         std::optional<algo::Protocol> protocol)
{
  std::vector<const algo::Algorithm*> candidates;
  const algo::Registry& reg = algo::Registry::instance();
  if (algorithm == "auto") {
    for (const std::string& name : auto_algorithms())
      if (const algo::Algorithm* a = reg.find(name); a && a->supports(op) && a->available(topo_)) candidates.push_back(a);
    if (candidates.empty())  // e.g. broadcast: any registered algorithm that implements it
      for (const auto& a : reg.all())
        if (a->supports(op) && a->available(topo_)) candidates.push_back(a.get());
  } else {
    const algo::Algorithm& a = reg.get(algorithm);
    if (!a.supports(op))
      throw UserError("algorithm \"" + std::string(algorithm) + "\" does not implement " + std::string(to_string(op)));
    if (!a.available(topo_))
      throw UserError("algorithm \"" + std::string(algorithm) + "\" is not available on " + topo_.instance().name);
    candidates.push_back(&a);
  }
  DDPSIM_CHECK(!candidates.empty(), "no algorithm implements " + std::string(to_string(op)));
  if (protocol && *protocol != algo::Protocol::simple && candidates.size() == 1 &&
      candidates.front()->nccl_family() == algo::NcclFamily::nvls)
    throw UserError("nvls runs with the Simple protocol only");
  std::vector<algo::Protocol> protocols = protocol ? std::vector<algo::Protocol>{*protocol} : algo::all_protocols();
  Choice best;
  double best_t = 0;
  for (const algo::Algorithm* a : candidates) {
    const double line_us = std::max(0.0, schedule_us(*a, op, bytes) - schedule_us(*a, op, Bytes{0}));
    const algo::HopCount hops = a->latency_hops(request(op, bytes));
    for (algo::Protocol p : protocols) {
      // NCCL runs NVLS with the Simple protocol only (tuning.cc disables LL/LL128 for it).
      if (a->nccl_family() == algo::NcclFamily::nvls && p != algo::Protocol::simple) continue;
      Choice c{a, p, algo::nccl_latency(a->nccl_family(), p, hops, topo_).us(), line_us / algo::protocol_bandwidth_cap(p)};
      const double t = c.latency_us + c.bandwidth_us;
      if (!best.algorithm || t < best_t) {
        best = c;
        best_t = t;
      }
    }
  }
  return best;
}

double CostModel::time_us(const Choice& c, const Profile& profile, Bytes bytes) const
{
  const ScopeParams& s = profile.scope(topo_.nodes());
  DDPSIM_CHECK(s.efficiency > 0, "profile efficiency must be positive");
  return s.alpha_us + c.latency_us + c.bandwidth_us / s.efficiency +
         s.gamma_us * std::sqrt(bytes.as_double() / static_cast<double>(MiB));
}

}  // namespace ddpsim::sim
