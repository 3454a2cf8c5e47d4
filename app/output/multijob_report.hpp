// Several jobs on one fabric (issue 12): the `ddpsim scenario` path for a file with `jobs:`, and
// its reporters (table, JSON, CSV). Each job's step alone and together, and its slowdown.
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

// Loads and runs `file` (a scenario with `jobs:`) on `engine` ("" = the file's engine:, else analytical) and writes the report in `format`
// to `output` ("" = stdout), behind the --max-memory guard (docs/reliability.md). Errors that
// name a field are located in the file.
int run_multijob_scenario(const std::string& file, const std::string& format, const std::string& engine,
                          const std::string& output, const std::string& max_memory);

}  // namespace ddpsim::app
