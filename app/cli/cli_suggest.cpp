#include "app/cli/cli_suggest.hpp"

#include <CLI/CLI.hpp>

#include "app/input/yaml_reader.hpp"

namespace ddpsim::app {

std::string suggest_option(const CLI::App& app, int argc, char** argv)
{
  // The deepest subcommand named on the command line (e.g. calibrate fit).
  const CLI::App* sub = &app;
  for (int i = 1; i < argc; ++i)
    for (const CLI::App* s : sub->get_subcommands([](const CLI::App*) { return true; }))
      if (s->get_name() == argv[i]) {
        sub = s;
        break;
      }
  std::vector<std::string> names;
  for (const CLI::Option* o : sub->get_options())
    if (!o->get_group().empty())
      for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg.size() < 4) continue;
    arg = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), arg) != names.end()) continue;
    const std::string hint = closest(arg, names);
    if (!hint.empty()) return " (did you mean " + hint + "?)";
  }
  return "";
}

}  // namespace ddpsim::app
