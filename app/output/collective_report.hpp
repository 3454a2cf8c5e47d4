// `ddpsim collective`'s outputs: an nccl-tests sweep predicted size by size (the numbers come from
// calibrate/collective_sweep.hpp), optionally beside a measured log, with the catalog-only
// network's interval where it applies; as all_reduce_perf's table, JSON or CSV.
#pragma once

#include <string>
#include <vector>

#include "calibrate/collective_sweep.hpp"

namespace ddpsim::app {

// Issue 18: a price across nodes carries its measured error as each row's p10-p90 time: the
// catalog's (the 255 multi-node nccl-tests rows the project holds) or a fitted profile's own residuals'
// (sim/study/model_error.hpp).
struct CollectiveInterval {
  std::vector<double> p10_us, p90_us;  // empty: no band (one node, or a profile without multi-node residuals)
  std::string what;                    // its distribution and source, one clause
  bool empty() const { return p10_us.empty(); }
};

struct CollectiveReport {
  std::string op, instance, profile;  // the profile's name as the command resolved it
  int nodes = 1, ranks = 1;
  bool compared = false;  // the rows carry a log's measurements (--compare)
  std::vector<calibrate::SweepRow> rows;
  CollectiveInterval band;
};

// `format`: nccl-tests (all_reduce_perf's table, which calibrate/nccl_log.cpp reads back), json or csv.
std::string collective_report(const CollectiveReport& rep, const std::string& format);

}  // namespace ddpsim::app
