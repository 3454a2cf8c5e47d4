// What-ifs applied to a configuration's result after its iteration was simulated (issue 12):
// failures and checkpoints (resilience.hpp) turn the failure-free total into an expected one.
// Runs in the parent process after any fan-out, so sweep.cpp's encoding needs no new fields.
#pragma once

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

void apply_whatifs(const ScenarioSpec& spec, ConfigResult& result);

}  // namespace ddpsim::sim
