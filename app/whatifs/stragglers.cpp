// `stragglers:`: slow ranks or nodes, clock spread, per-step jitter, slow loaders (what-if;
// docs/whatif.md, sim/study/whatifs/stragglers.hpp), read from the scenario file and shown.
#include "app/whatifs/whatif_view.hpp"
#include "sim/study/whatifs/stragglers.hpp"

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

// {steps_simulated: 20, seed: 1, ranks: {3: 1.5}, nodes: {1: 1.2}, slow_loader: {2: 3},
// clock_sigma: 0.02, jitter_sigma: 0.05}. Factors are >= 0.01 multiples of the nominal time.
std::shared_ptr<const sim::WhatIf> read_stragglers(Reader& r, const YAML::Node& n, const sim::ScenarioSpec&)
{
  const std::string path = "stragglers";
  if (!r.expect_map(n, path)) return nullptr;
  r.allow_keys(n, path, scenario_keys("stragglers"));
  sim::StragglerSpec s;
  if (auto v = r.integer(n, path, "steps_simulated", false, 1, 100000)) s.steps = static_cast<int>(*v);
  if (auto v = r.integer(n, path, "seed", false, 0, std::int64_t{1} << 62)) s.seed = static_cast<std::uint64_t>(*v);
  if (auto v = r.number(n, path, "clock_sigma", false, 0, 2)) s.clock_sigma = *v;
  if (auto v = r.number(n, path, "jitter_sigma", false, 0, 2)) s.jitter_sigma = *v;
  read_factors(r, n["ranks"], "stragglers.ranks", s.rank_factor);
  read_factors(r, n["nodes"], "stragglers.nodes", s.node_factor);
  read_factors(r, n["slow_loader"], "stragglers.slow_loader", s.node_loader);
  return sim::stragglers_whatif(s);
}

}  // namespace

const WhatIfView& whatif_view_stragglers()
{
  static const WhatIfView view{
      .name = "stragglers",
      .keys = {{"stragglers", {"steps_simulated", "seed", "ranks", "nodes", "slow_loader", "clock_sigma", "jitter_sigma"}}},
      .parse = read_stragglers,
      .json = {"steps_simulated", "nominal_step_s", "step_mean_s", "step_p50_s", "step_p99_s", "slowdown",
               "sync_wait_mean_s", "sync_wait_max_s", "total_time_s"},
      .json_after = "degraded",
      .csv = {{"straggler_step_p50_s", "step_p50_s", Show::time, "", 45},
              {"straggler_step_p99_s", "step_p99_s", Show::time, "", 46},
              {"straggler_step_mean_s", "step_mean_s", Show::time, "", 47},
              {"sync_wait_mean_s", "sync_wait_mean_s", Show::time, "", 48}},
      .title = [](const sim::WhatIfResult& first) {
        return "stragglers (" + std::to_string(first.count("steps_simulated")) + " steps simulated, every rank):";
      },
      .table = {{"nominal", "nominal_step_s"},
                {"step p50", "step_p50_s"},
                {"step p99", "step_p99_s"},
                {"mean", "step_mean_s"},
                {"slowdown", "slowdown", Show::fixed, "%.3fx"},
                {"sync wait", "sync_wait_mean_s"},
                {"max wait", "sync_wait_max_s"},
                {"total", "total_time_s"}},
      .legend = "nominal = the step without stragglers; step p50/p99/mean over the simulated steps (time between the "
                "last rank's step ends); sync wait = how long a rank's last bucket waits for the slowest rank's "
                "gradients (mean, max); total = start-up + steps x mean.",
      .html_heading = "What-if: stragglers and jitter",
      .html = {{"ranks", "ranks", Show::integer},
               {"steps", "steps_simulated", Show::integer},
               {"nominal step", "nominal_step_s"},
               {"step p50", "step_p50_s"},
               {"step p99", "step_p99_s"},
               {"slowdown", "slowdown", Show::fixed, "%.3fx"},
               {"sync wait mean", "sync_wait_mean_s"},
               {"sync wait max", "sync_wait_max_s"}},
      .html_note = "Every rank simulated with its own speed over the steps; sync wait = how long a rank's last bucket "
                   "waited for the slowest rank's gradients (docs/whatif.md).",
      .example = "{steps_simulated: 4, seed: 3, ranks: {1: 1.5}, slow_loader: {0: 2}, jitter_sigma: 0.05}"};
  return view;
}

}  // namespace ddpsim::app
