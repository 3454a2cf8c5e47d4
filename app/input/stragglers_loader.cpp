#include "app/input/stragglers_loader.hpp"
#include "app/input/scenario_keys.hpp"

namespace ddpsim::app {
namespace {

void read_factors(Reader& r, const YAML::Node& n, const std::string& field, std::map<int, double>& out)
{
  if (!n.IsDefined()) return;
  if (!n.IsMap()) {
    r.error(n, field, "expected a map of index: factor, e.g. {3: 1.5}");
    return;
  }
  for (const auto& kv : n) {
    auto index = r.as_integer(kv.first, field, 0, 1 << 24);
    auto factor = r.as_number(kv.second, field + "." + kv.first.Scalar(), 0.01, 1000);
    if (index && factor) out[static_cast<int>(*index)] = *factor;
  }
}

}  // namespace

void read_stragglers(Reader& r, const YAML::Node& n, sim::StragglerSpec& s)
{
  const std::string path = "stragglers";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("stragglers"));
  if (auto v = r.integer(n, path, "steps_simulated", false, 1, 100000)) s.steps = static_cast<int>(*v);
  if (auto v = r.integer(n, path, "seed", false, 0, std::int64_t{1} << 62)) s.seed = static_cast<std::uint64_t>(*v);
  if (auto v = r.number(n, path, "clock_sigma", false, 0, 2)) s.clock_sigma = *v;
  if (auto v = r.number(n, path, "jitter_sigma", false, 0, 2)) s.jitter_sigma = *v;
  read_factors(r, n["ranks"], "stragglers.ranks", s.rank_factor);
  read_factors(r, n["nodes"], "stragglers.nodes", s.node_factor);
  read_factors(r, n["slow_loader"], "stragglers.slow_loader", s.node_loader);
}

}  // namespace ddpsim::app
