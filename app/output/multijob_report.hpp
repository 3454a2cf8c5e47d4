// Several jobs on one fabric (issue 12): the reporters (table, JSON, CSV) of a file with `jobs:`
// (run by app/cli/cmd_scenario.cpp). Each job's step alone and together, and its slowdown.
#pragma once

#include <string>
#include <vector>

#include "sim/study/multijob.hpp"

namespace ddpsim::app {

// "0-3,8-11": a job's cluster nodes as ranges (the table and the HTML page both show it).
std::string node_list(const std::vector<int>& nodes);

std::string multijob_table(const sim::MultiJobReport& rep);
std::string multijob_json(const sim::MultiJobReport& rep);
std::string multijob_csv(const sim::MultiJobReport& rep);

}  // namespace ddpsim::app
