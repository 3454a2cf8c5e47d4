// Checks across a scenario's sections, once each section has been read on its own.
#pragma once

#include <yaml-cpp/yaml.h>

#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// Records an error in `r` for a combination the simulation cannot run: a communication.algorithm
// that the framework's library does not implement (Gloo runs ring and rhd only), or an algorithm
// or protocol that the scenario's NCCL release (software.nccl) does not have yet.
void check_cross_fields(Reader& r, const YAML::Node& root, const sim::ScenarioSpec& s);

}  // namespace ddpsim::app
