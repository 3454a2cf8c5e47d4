// Degraded links (issue 12) on a configuration's result after its iteration was simulated: which of
// the scenario's degraded links this size has (the topology applied them). Runs in the parent
// process after any fan-out. The what-ifs that add results to a row are sim/study/whatifs/.
#pragma once

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

void apply_whatifs(const ScenarioSpec& spec, ConfigResult& result);

}  // namespace ddpsim::sim
