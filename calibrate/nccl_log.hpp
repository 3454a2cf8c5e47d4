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

// Parses `text` (the content of `file`; `file` is used in messages only).
NcclLog parse_nccl_log(const std::string& file, const std::string& text);
// Reads and parses a file; UserError when it cannot be read.
NcclLog read_nccl_log(const std::string& file);

}  // namespace ddpsim::calibrate
