// The columns of a scenario's results table (issue 20), shared by the terminal table and the HTML
// page so both show the same numbers, error columns included. The default set fits 120 columns
// for the example scenarios (time, bound, total with its interval, speedup, cost and, where the
// scenario has them, the uncalibrated and observed values, errors and fit roles); `wide` adds
// throughput, the step's breakdown, efficiency, memory and every interval. Each time column has
// one unit, named in its head. Every value is taken by name from the one field list
// (result_fields.hpp), so JSON and CSV carry what the table shows, and every field whatever it shows.
#pragma once

#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

struct TableColumn {
  std::string head;
  bool left = false;               // text (left-aligned) or number (right-aligned)
  std::vector<std::string> cells;  // one per result row
};

struct ScenarioColumns {
  std::string context;  // "instance ml.p3.16xlarge (8 GPUs per node), framework lightning" when columns omit them
  std::vector<TableColumn> columns;
  std::vector<std::string> legend;  // one entry per shown column that needs explaining
};

ScenarioColumns scenario_columns(const sim::ScenarioReport& rep, bool wide);

// A p10-p90 band printed beside a value unless it is zero-width at the printed precision:
// "99.0 (96.5-101.5)", or "99.0" alone.
std::string with_band(const std::string& value, const std::string& low, const std::string& high);

}  // namespace ddpsim::app
