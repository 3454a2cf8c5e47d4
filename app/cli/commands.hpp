// The ddpsim subcommands. Each lives in its own cmd_*.cpp with its options struct; main.cpp only
// wires them. A command registers its options on construction and runs after parsing succeeded.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace ddpsim::app {

class Command {
 public:
  virtual ~Command() = default;
  // True when the user chose this subcommand.
  virtual bool selected() const = 0;
  // Runs it; returns the exit code. Throws UserError / InternalError on failure.
  virtual int run() = 0;
};

std::unique_ptr<Command> make_scenario_command(CLI::App& app);
std::unique_ptr<Command> make_catalog_command(CLI::App& app);
std::unique_ptr<Command> make_models_command(CLI::App& app);
std::unique_ptr<Command> make_collective_command(CLI::App& app);
std::unique_ptr<Command> make_calibrate_command(CLI::App& app);
std::unique_ptr<Command> make_plan_command(CLI::App& app);
std::unique_ptr<Command> make_merge_command(CLI::App& app);  // issue 11
std::unique_ptr<Command> make_algorithms_command(CLI::App& app);  // issue 11

}  // namespace ddpsim::app
