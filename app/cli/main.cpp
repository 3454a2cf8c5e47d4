// ddpsim: wires the subcommands and maps errors to exit codes (0 ok, 2 bad input, 70 internal).
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/commands.hpp"
#include "app/input/yaml_reader.hpp"
#include "app/cli/cli_suggest.hpp"
#include "app/cli/malloc_tuning.hpp"  // issue 21
#include "core/error.hpp"
#include "core/text.hpp"

int main(int argc, char** argv)
{
  using namespace ddpsim;
  app::keep_freed_memory();
  CLI::App app{"ddpsim: cluster simulator and digital twin for data-parallel deep-learning training"};
  app.set_version_flag("--version", "ddpsim 0.1.0");
  app.require_subcommand(1);
  // --help shows every option's default (issue 11); subcommands inherit this from the app.
  app.option_defaults()->always_capture_default();
  std::vector<std::unique_ptr<app::Command>> commands;
  commands.push_back(app::make_scenario_command(app));
  commands.push_back(app::make_catalog_command(app));
  commands.push_back(app::make_models_command(app));
  commands.push_back(app::make_collective_command(app));
  commands.push_back(app::make_calibrate_command(app));
  commands.push_back(app::make_plan_command(app));
  commands.push_back(app::make_merge_command(app));  // issue 11
  commands.push_back(app::make_algorithms_command(app));
  commands.push_back(app::make_expect_command(app));  // issue 20

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "ddpsim: error: " << printable(e.what()) << app::suggest_option(app, argc, argv) << " (see --help)\n";
    return kExitUsage;
  }

  try {
    for (auto& c : commands)
      if (c->selected()) return c->run();
    return kExitUsage;
  } catch (const app::UserErrors& e) {
    for (const UserError& one : e.all()) std::cerr << one.what() << "\n";
    return kExitUsage;
  } catch (const UserError& e) {
    std::cerr << e.what() << "\n";
    return kExitUsage;
  } catch (const InternalError& e) {
    std::cerr << "ddpsim: internal error: " << printable(e.what()) << "\n";
    return kExitInternal;
  } catch (const std::bad_alloc&) {
    // The resource guards (docs/reliability.md) should refuse such inputs up front.
    std::cerr << "ddpsim: error: out of memory (lower the node count or raise --max-memory)\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "ddpsim: internal error: " << printable(e.what()) << "\n";
    return kExitInternal;
  }
}
