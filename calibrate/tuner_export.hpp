// `ddpsim calibrate export PROFILE --nccl-tuner FILE.csv` (issue 20): the fitted model's per-size
// algorithm/protocol choice written for NCCL's example tuner plugin (NVIDIA/nccl
// plugins/tuner/example, read from NCCL_TUNER_CONFIG_FILE), one row per size range where the
// choice differs from NCCL's default.
//
// The file format, as plugin.c reads it: one config per line,
//   collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff
// lines whose first character is '#' or that are empty are skipped; fields are split at commas and
// trimmed of spaces and tabs; 8 to 10 fields, else the line is ignored; -1 matches any nNodes,
// nRanks, numPipeOps, regBuff and keeps NCCL's channel count; sizes are inclusive; the first
// matching line wins; unknown names silently become allreduce/ring/simple, so only the plugin's
// names are written; lines are read with a 256-byte buffer, so every line here is shorter.
//
// NCCL's default is its own cost model's choice, which ddpsim's CollectiveModel reproduces on the
// catalog (tuning.cc's model: `auto`). The fitted choice is the fastest NCCL algorithm x protocol
// under the profile's terms. channels, numPipeOps and regBuff are -1: the model fits neither.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/network/profile.hpp"
#include "topology/instance.hpp"

namespace ddpsim::calibrate {

struct TunerExportInput {
  std::string profile;              // file (named in the header; read by the app)
  std::string instance;             // "": the profile's
  std::vector<int> nodes;           // empty: the node counts of the profile's fit data (or 2)
  int gpus_per_node = 0;            // 0: all
  std::vector<std::string> ops;     // ddpsim names (all_reduce, ...)
  std::uint64_t min_bytes = 8, max_bytes = std::uint64_t{8} << 30;
  double min_gain = 0.01;           // a row only where the fitted choice is this much faster
};

struct TunerRow {
  std::string collective, algorithm, protocol;  // the plugin's spellings
  std::uint64_t min_bytes = 0, max_bytes = 0;
  int nodes = 0, ranks = 0;
  std::string why;                              // a comment line: times of both choices
};

struct TunerExport {
  std::vector<std::string> header;  // comment lines (provenance)
  std::vector<TunerRow> rows;
};

// `inst` and `prof` as the app resolved them (app/input/profile_io.hpp: the profile is for `inst`).
TunerExport export_nccl_tuner(const InstanceSpec& inst, const sim::Profile& prof, const TunerExportInput& in);

}  // namespace ddpsim::calibrate
