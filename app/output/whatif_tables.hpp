// The what-if tables printed under a scenario's table (app/output/whatif_tables.cpp).
#pragma once

#include <string>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

std::string resilience_table(const sim::ScenarioReport& rep, bool wide);  // failures and checkpoints
std::string whatif_tables(const sim::ScenarioReport& rep, bool wide);     // those of app/whatifs/, in order

}  // namespace ddpsim::app
