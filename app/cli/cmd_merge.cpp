// `ddpsim merge SHARDS...`: the report of a sharded run (issue 11; app/output/shards.hpp), byte for byte
// what the serial `ddpsim scenario` or `ddpsim plan` prints, in any --format.
#include <CLI/CLI.hpp>

#include "app/cli/commands.hpp"
#include "app/output/formats.hpp"
#include "app/output/output.hpp"
#include "app/output/shards.hpp"

namespace ddpsim::app {
namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  std::string format = "table";
  std::string output;
};

class MergeCommand final : public Command {
 public:
  explicit MergeCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("merge", "Merge the JSON Lines of `scenario|plan --shard I/N` runs into the serial report");
    cmd_->add_option("shards", opt_.shards, "Shard files, all N of one run, in any order")->required();
    cmd_->add_option("--format", opt_.format, "Output format")
        ->check(CLI::IsMember(report_formats()))
        ->capture_default_str();
    cmd_->add_option("-o,--output", opt_.output, "Write the report to this file (atomically) instead of stdout");
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const Merged m = merge_shards(opt_.shards);
    write_output(opt_.output, m.scenario ? render_scenario(*m.scenario, opt_.format) : render_plan(*m.plan, opt_.format));
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  MergeOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_merge_command(CLI::App& app) { return std::make_unique<MergeCommand>(app); }

}  // namespace ddpsim::app
