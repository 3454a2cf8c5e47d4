// Reporters: they only format a finished sim::ScenarioReport (table for people, JSON and CSV for
// scripts). No simulation happens here.
#pragma once

#include <string>

#include "app/output/result_fields.hpp"  // fit_note
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

std::string scenario_table(const sim::ScenarioReport& report, bool wide = false);  // issue 20: --wide
std::string scenario_json(const sim::ScenarioReport& report);
std::string scenario_csv(const sim::ScenarioReport& report);

}  // namespace ddpsim::app
