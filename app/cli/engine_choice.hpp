// Which network backend a scenario runs on, and what the user should know about that choice.
// The command line's --engine wins over the scenario's `engine:`; neither given: analytical.
#pragma once

#include <string>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

sim::EngineKind resolve_engine(const std::string& cli_engine, const std::string& file_engine);
sim::EngineKind resolve_engine(const std::string& cli_engine, const sim::ScenarioSpec& spec);

// Adds a warning to every row the analytical engine priced across an oversubscribed leaf/spine
// fabric: that engine charges each transfer at its link's rate and does not share a leaf's uplink among concurrent transfers, so
// cross-leaf contention is missing (the flow engine shares it: docs/model.md, "Fabrics").
void add_engine_warnings(const sim::ScenarioSpec& spec, sim::EngineKind engine, sim::ScenarioReport& report);

}  // namespace ddpsim::app
