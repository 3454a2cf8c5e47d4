// `ddpsim collective`'s numbers (its tables are app/cli/cmd_collective.cpp): an nccl-tests sweep
// predicted size by size, each collective alone on an idle network (the CollectiveModel and a
// network backend), optionally beside the rows of a measured log. Also the sweep's sizes, which
// `ddpsim expect` uses too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/launch_floor.hpp"
#include "calibrate/nccl_log.hpp"
#include "sim/network/collective_model.hpp"

namespace ddpsim::calibrate {

struct SweepRow {
  std::uint64_t bytes = 0;
  double time_us = 0, algbw = 0, busbw = 0;  // GB/s; 0 where nothing moves (one rank)
  std::string algorithm, protocol;           // protocol "-" for algorithms NCCL does not run
  double measured_us = 0, measured_busbw = 0;  // beside a log
  bool launch_bound = false;  // beside a log: the time is the log's launch floor (launch_floor_us), not the collective
};

// nccl-tests' sizes: lo, lo x factor, ... up to hi.
std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi, std::uint64_t factor);

// Each size of `sizes` on `ranks` ranks. A size that drives the time past the clock is a
// UserError naming `size_field` (the option that asked for it).
std::vector<SweepRow> predict_sweep(const sim::CollectiveModel& model, sim::NetworkBackend& net, algo::CollectiveOp op,
                                    int ranks, const std::vector<std::uint64_t>& sizes, const std::string& size_field);

// `ddpsim collective --explain`: for each size, every (algorithm, protocol) the choice weighs, with
// NCCL's own estimate (what it chooses by; 0 for algorithms NCCL does not run) and ddpsim's time
// for it on `net`; `chosen` marks the one price() runs, whose row names who chose it.
struct CandidateRow {
  std::uint64_t bytes = 0;
  std::string algorithm, protocol;
  double nccl_estimate_us = 0, time_us = 0;
  bool chosen = false;
  std::string chooser;  // on the chosen row
};
std::vector<CandidateRow> explain_sweep(const sim::CollectiveModel& model, sim::NetworkBackend& net, algo::CollectiveOp op,
                                        const std::vector<std::uint64_t>& sizes, const std::string& size_field);

// Every row of `log` predicted, with its measured time and busbw; the log must have `ranks` ranks
// (else a UserError at its first row). A row's time is at least the log's launch floor
// (launch_floor_us: one host thread launching G GPUs), as the benchmark printed it.
std::vector<SweepRow> compare_log(const sim::CollectiveModel& model, sim::NetworkBackend& net, algo::CollectiveOp op,
                                  int ranks, const NcclLog& log, const std::string& field);

}  // namespace ddpsim::calibrate
