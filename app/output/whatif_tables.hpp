// The what-if tables printed under a scenario's table (app/output/whatif_tables.cpp).
#pragma once

#include <string>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

std::string resilience_table(const sim::ScenarioReport& rep, bool wide);  // failures and checkpoints
std::string stragglers_table(const sim::ScenarioReport& rep, bool wide);  // slow ranks and jitter

}  // namespace ddpsim::app
