// Reporters: they only format a finished sim::ScenarioReport (table for people, JSON and CSV for
// scripts). No simulation happens here.
#pragma once

#include <string>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

std::string scenario_table(const sim::ScenarioReport& report);
std::string scenario_json(const sim::ScenarioReport& report);
std::string scenario_csv(const sim::ScenarioReport& report);
// "fits: needs 12.3 GiB of 40 GiB" or "does not fit: needs 25.1 GiB of 16 GiB".
std::string fit_note(const sim::ConfigResult& r);

}  // namespace ddpsim::app
