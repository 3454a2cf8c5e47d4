// The scenario loader, then (for clusters small enough to simulate quickly) the guards and the
// analytical simulation: bad YAML must be a UserError, a loaded scenario must give finite,
// non-negative times or a UserError from the guards, never an overflow or an internal error.
#include <string>

#include "app/input/scenario_loader.hpp"
#include "fuzz_common.hpp"
#include "sim/network/guards.hpp"
#include "sim/study/guards.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const app::Catalog catalog = app::builtin_catalog();
  const std::string text(reinterpret_cast<const char*>(data), size);
  sim::ScenarioSpec spec;
  if (!fuzz::accepts([&] { spec = app::parse_scenario("fuzz.yaml", text, catalog); })) return 0;
  // Keep each input fast: small clusters, few configurations, small models.
  std::int64_t gpus = 0;
  for (int n : spec.cluster.nodes) gpus += static_cast<std::int64_t>(n) * spec.cluster.instance.gpus;
  if (gpus > 1024 || spec.model.layers.size() > 2000) return 0;
  fuzz::accepts([&] {
    for (int n : spec.cluster.nodes)
      sim::check_resources(n, spec.cluster.instance.gpus, sim::EngineKind::analytical, sim::Workload::all_to_all,
                           sim::ResourceLimits{}, "cluster.nodes");
    sim::check_time_range(spec);
    sim::ScenarioReport rep;
    try {
      rep = sim::run_scenario(spec);
    } catch (const OverflowError& e) {
      throw sim::blame_overflow(spec, e.what());  // what the app does (cmd_scenario.cpp)
    }
    for (const sim::ConfigResult& r : rep.results) {
      fuzz::check_time(r.step_time_s, "step_time_s");
      fuzz::check_time(r.total_time_s, "total_time_s");
      fuzz::check_time(r.comm_s, "comm_s");
      fuzz::check_time(r.exposed_comm_s, "exposed_comm_s");
    }
  });
  return 0;
}
