// Several scenarios in one call (`ddpsim scenario a.yaml b.yaml`): one CSV table for all.
#pragma once

#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// The reports' CSV tables merged into one: a first `scenario` column, then the union of their
// columns in order of first appearance (a scenario without a column leaves it empty).
std::string scenarios_csv(const std::vector<sim::ScenarioReport>& reports);

// RFC 4180 fields of one CSV line (no newlines inside fields: the reporters keep cells on one line).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace ddpsim::app
