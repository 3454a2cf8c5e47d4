// The what-if tables printed under a scenario's table (app/output/whatif_tables.cpp), and the rows
// helper a what-if's own table uses (app/whatifs/, WhatIfView::table_text).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/output/scenario_columns.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

std::string whatif_tables(const sim::ScenarioReport& rep, bool wide);  // those of app/whatifs/, in order

// The rows that carry the what-if `name`, and the identifying columns every what-if table starts
// with (instance and framework where they vary or under --wide, then nodes).
struct WhatIfRows {
  std::vector<const sim::ConfigResult*> rows;
  std::vector<TableColumn> cols;
  TableColumn text(const std::string& head, bool left, const std::function<std::string(const sim::ConfigResult&)>& f) const;
  void time(const std::string& head, const std::function<std::optional<double>(const sim::ConfigResult&)>& f);
};
WhatIfRows whatif_rows(const sim::ScenarioReport& rep, bool wide, const std::string& name);

}  // namespace ddpsim::app
