// The command line: the input is split into arguments at NUL bytes and newlines and given to the
// real CLI11 wiring of main.cpp. Commands that only compute (catalog, models, collective on the
// analytical engine without files) then run; others stop after parsing, so the fuzzer never
// writes files or reads arbitrary paths.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "fuzz_common.hpp"

using namespace ddpsim;

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
  if (!std::freopen("/dev/null", "w", stdout)) return 0;  // reports are not the point
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  std::vector<std::string> args{"ddpsim"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.size() > 64) return 0;
  bool safe = args.size() > 1 && (args[1] == "collective" || args[1] == "catalog" || args[1] == "models");
  for (const std::string& a : args)
    for (const char* risky : {"-o", "--output", "--out", "--compare", "--profile", "--engine", "--trace", "-j", "--jobs"})
      if (a.rfind(risky, 0) == 0) safe = false;
  // Large clusters are the guards' business (unit-tested); here they would only slow the fuzzer.
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string v = a.rfind("--nodes=", 0) == 0 ? a.substr(8) : a == "--nodes" && i + 1 < args.size() ? args[i + 1] : "";
    if (!v.empty() && (v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos)) safe = false;
  }
  CLI::App app{"ddpsim"};
  app.require_subcommand(1);
  std::vector<std::unique_ptr<app::Command>> commands;
  commands.push_back(app::make_scenario_command(app));
  commands.push_back(app::make_catalog_command(app));
  commands.push_back(app::make_models_command(app));
  commands.push_back(app::make_collective_command(app));
  commands.push_back(app::make_calibrate_command(app));
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Error&) {
    return 0;  // CLI11's own usage errors (exit 2 in main.cpp), help and version
  }
  if (!safe) return 0;
  fuzz::accepts([&] {
    for (auto& c : commands)
      if (c->selected()) c->run();
  });
  return 0;
}
