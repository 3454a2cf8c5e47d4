// The `calibrate export` subcommand (issue 20), registered by app/cli/cmd_calibrate.cpp.
#pragma once

#include <string>
#include <vector>

#include "calibrate/tuner_export.hpp"

namespace CLI {
class App;
}

namespace ddpsim::app {

struct ExportCommandOptions {
  calibrate::TunerExportInput in;
  std::string nccl_tuner;  // output file
  std::string min_bytes = "8", max_bytes = "8G";
};

void add_calibrate_export(CLI::App& calibrate, ExportCommandOptions& opt, CLI::App*& sub);
int run_calibrate_export(ExportCommandOptions& opt);

}  // namespace ddpsim::app
