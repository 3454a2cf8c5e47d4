// Scenario YAML with `jobs:` -> sim::MultiJobSpec (several jobs on one fabric, issue 12;
// docs/whatif.md section 5). Each job is read as a scenario of its own by the scenario loader
// (its model/training/... sections, or the file's top-level ones it does not override), so every
// key means what it means in a one-job scenario and errors keep their file:line:column.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "app/input/catalog_loader.hpp"
#include "sim/study/multijob.hpp"

namespace ddpsim::app {

// True when `path` parses as a YAML map with a `jobs` key (errors are left to the full load).
bool is_multijob_file(const std::string& path);
sim::MultiJobSpec parse_multijob(const std::string& name, const YAML::Node& root, const Catalog& catalog);
sim::MultiJobSpec load_multijob(const std::string& path, const Catalog& catalog);

}  // namespace ddpsim::app
