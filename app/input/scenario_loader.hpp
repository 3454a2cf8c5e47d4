// Scenario YAML -> validated sim::ScenarioSpec. Every problem is collected with file:line:column
// and the field path, then reported together (UserErrors).
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "app/input/catalog_loader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

inline constexpr int kMaxNodes = 65536;

sim::ScenarioSpec load_scenario(const std::string& path, const Catalog& catalog);
sim::ScenarioSpec parse_scenario(const std::string& name, const std::string& text, const Catalog& catalog);
// The same from an already parsed document (ddpsim plan builds one per variant).
sim::ScenarioSpec parse_scenario_node(const std::string& name, const YAML::Node& root, const Catalog& catalog);

}  // namespace ddpsim::app
