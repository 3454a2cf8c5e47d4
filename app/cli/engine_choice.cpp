#include "app/cli/engine_choice.hpp"

#include "core/text.hpp"
#include "sim/network/backends.hpp"

namespace ddpsim::app {

sim::EngineKind resolve_engine(const std::string& cli_engine, const std::string& file_engine)
{
  if (!cli_engine.empty()) return sim::parse_engine(cli_engine);
  if (!file_engine.empty()) return sim::parse_engine(file_engine);
  return sim::EngineKind::analytical;
}

sim::EngineKind resolve_engine(const std::string& cli_engine, const sim::ScenarioSpec& spec)
{
  return resolve_engine(cli_engine, spec.engine);
}

void add_engine_warnings(const sim::ScenarioSpec& spec, sim::EngineKind engine, sim::ScenarioReport& report)
{
  const FabricSpec& f = spec.cluster.fabric;
  if (engine != sim::EngineKind::analytical || f.kind != FabricKind::leaf_spine || f.oversubscription <= 1) return;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%g:1", f.oversubscription);
  for (sim::ConfigResult& r : report.results)
    if (r.nodes > f.nodes_per_leaf)
      r.warnings.push_back(std::string("the fabric is oversubscribed ") + ratio + " across " +
                           std::to_string((r.nodes + f.nodes_per_leaf - 1) / f.nodes_per_leaf) +
                           " leaves but the analytical engine does not share the leaf uplinks among concurrent transfers; run --engine flow "
                           "(or engine: flow) for contention");
}

}  // namespace ddpsim::app
