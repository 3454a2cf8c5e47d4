// The `calibrate job` subcommand, registered by app/cli/cmd_calibrate.cpp.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ddpsim::app {

struct JobCommandOptions {
  std::string scenario;
  std::vector<std::string> knobs;
  std::string fit_on;
  double noise = 0.02;
  std::string out;
};

void add_calibrate_job(CLI::App& calibrate, JobCommandOptions& opt, CLI::App*& sub);
int run_calibrate_job(const JobCommandOptions& opt);

}  // namespace ddpsim::app
