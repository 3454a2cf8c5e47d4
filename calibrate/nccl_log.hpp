// Reading nccl-tests results: the text tables all_reduce_perf prints (old and new column sets,
// with or without launcher prefixes such as `[1,0]<stdout>:` (Open MPI) or `0:` (srun)), and the
// CSV form "Nodes,GPUs,size(MB),...,out algbw(GB/s),out busbw(GB/s),..." (sizes in MiB).
// Only out-of-place rows are used (in-place differs by noise). Rows of size 0 are skipped.
// Bad input (a truncated row, wrong columns, no rows at all) throws UserError naming
// file:line:column.
#pragma once

#include <string>
#include <vector>

#include "core/units.hpp"

namespace ddpsim::calibrate {

struct LogRow {
  int line = 0;          // 1-based line in the file
  Bytes bytes;           // nccl-tests "size" per rank
  double time_us = 0;    // out-of-place time
  double algbw_GBps = 0;
  double busbw_GBps = 0;
  double algbw_ulp = 0;  // half a unit in the last printed digit of algbw (its rounding)
  double busbw_ulp = 0;
};

// The most ranks a log may describe (the CSV's GPUs, or inferred from busbw/algbw): the
// largest cluster ddpsim simulates (docs/reliability.md).
inline constexpr int kMaxLogRanks = 131072;

struct NcclLog {
  std::string file;
  std::string nccl_version;  // "" when the log does not say
  int ranks = 0;             // from the CSV's GPUs column, or busbw/algbw = 2(n-1)/n
  int nodes = 0;             // from the CSV's Nodes column; 0 for text logs (the caller knows GPUs per node)
  std::vector<LogRow> rows;  // in file order
  // nccl-tests' footer "# Avg bus bandwidth : X" (GB/s; mean busbw over all rows, out-of-place and
  // in-place); 0 when the log has none (CSV, a truncated log).
  double avg_busbw_GBps = 0;
  // The lines that set NCCL's choice (NCCL_ALGO=, NCCL_PROTO=, NCCL_TUNER_PLUGIN=, ...;
  // calibrate/log_env.hpp reads them), "" when the log names none.
  std::string environment;
  // GPUs one host thread drove: nccl-tests' "# nThread T nGpus G" (-g G), or the "nGpus N" of
  // ddpsim's own runner (calibrate/nccl_runner.cpp: one thread); 1 when the log does not say.
  int gpus_per_thread = 1;
};

// NCCL's host cost of one collective call on one GPU: the per-iteration floor this project
// measured on an H100 (validation/device/h100_20261125/h100_allreduce.nccl-tests.txt: NCCL 2.28.9,
// one GPU, ncclGroupStart/ncclAllReduce/ncclGroupEnd in a loop): the median of its 8 B - 1 MiB
// rows, and their range apart from one 12.6 us outlier. It agrees with the 4-6 us per CUDA launch
// behind the training step's `overheads.collective_launch` (docs/model.md).
inline constexpr double kNcclHostCallUs = 6.29;
inline constexpr double kNcclHostCallLowUs = 5.96, kNcclHostCallHighUs = 7.82;

// The least time per iteration a benchmark that drove `gpus_per_thread` GPUs from one host
// thread can print (docs/calibration.md "One thread, several GPUs"): nccl-tests enqueues every
// iteration without waiting (src/common.cu, the timing loop; startColl launches the thread's GPUs
// one after another inside one group), so an iteration takes the longer of the thread's
// G x kNcclHostCallUs of host calls and the collective itself. 0 for one GPU per thread (the
// log does not say, or -g 1): one call's 6 us is below what any collective of several ranks takes,
// so the floor never binds there and such logs are priced and fitted as before.
// `per_call_us` is kNcclHostCallUs, or an end of its range.
double launch_floor_us(const NcclLog& log, double per_call_us = kNcclHostCallUs);
// What the benchmark prints for a collective that alone takes `collective_us`: at least the floor.
double as_benchmarked_us(const NcclLog& log, double collective_us);
// True when the row may time the host calls rather than the collective (below the floor's high
// end): `calibrate fit` leaves such rows out.
bool at_launch_floor(const NcclLog& log, const LogRow& row);

// Parses `text` (the content of `file`; `file` is used in messages only).
NcclLog parse_nccl_log(const std::string& file, const std::string& text);
// Reads and parses a file; UserError when it cannot be read.
NcclLog read_nccl_log(const std::string& file);

}  // namespace ddpsim::calibrate
