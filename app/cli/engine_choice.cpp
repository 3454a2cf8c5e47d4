#include "app/cli/engine_choice.hpp"

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

}  // namespace ddpsim::app
