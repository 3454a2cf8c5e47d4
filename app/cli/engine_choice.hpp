// Which network backend a scenario runs on: the command line's --engine wins over the scenario's
// `engine:`; neither given: analytical. (What the user should know about that choice:
// sim/study/guards.hpp add_engine_warnings.)
#pragma once

#include <string>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

sim::EngineKind resolve_engine(const std::string& cli_engine, const std::string& file_engine);
sim::EngineKind resolve_engine(const std::string& cli_engine, const sim::ScenarioSpec& spec);

}  // namespace ddpsim::app
