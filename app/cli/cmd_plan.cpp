// `ddpsim plan FILE`: search instances x nodes x frameworks x settings against a deadline and a
// budget; prints the recommendation and why, the time/cost Pareto frontier and what was excluded.
#include <CLI/CLI.hpp>

#include "app/input/catalog_loader.hpp"
#include "app/cli/commands.hpp"
#include "app/output/formats.hpp"
#include "app/output/output.hpp"
#include "app/input/plan_loader.hpp"
#include "app/cli/progress.hpp"
#include "app/cli/shard_option.hpp"

namespace ddpsim::app {
namespace {

struct PlanOptions {
  std::string file;
  std::string format = "table";
  std::string output;
  int jobs = 1;
  std::string shard;  // issue 11: "I/N", "auto" or "auto/N" (app/output/shards.hpp)
};

class PlanCommand final : public Command {
 public:
  explicit PlanCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("plan", "Search configurations against a deadline and a budget (recommendation, Pareto frontier)");
    cmd_->add_option("file", opt_.file, "Plan YAML: a scenario with lists/ranges and a goal (see scenarios/plans/)")
        ->required();
    cmd_->add_option("--format", opt_.format, "Output format")
        ->check(CLI::IsMember(report_formats()))
        ->capture_default_str();
    cmd_->add_option("-j,--jobs", opt_.jobs, "Evaluate variants in up to N processes at once")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd_->add_option("-o,--output", opt_.output, "Write the report to this file (atomically) instead of stdout");
    add_shard_option(*cmd_, opt_.shard);  // issue 11
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const PlanInput in = load_plan(opt_.file, catalog);
    Progress progress("variants");
    const sim::PlanProgress tick = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    // Issue 11: a shard evaluates variants v with v mod N == I and writes JSON Lines for `ddpsim merge`.
    if (const std::optional<Shard> shard = shard_of(*cmd_, opt_.shard, "")) {
      const std::vector<std::size_t> mine = shard_members(in.variants.size(), *shard);
      std::vector<sim::PlanVariant> share;
      for (std::size_t v : mine) share.push_back(in.variants[v]);
      const auto results = sim::evaluate_variants(share, opt_.jobs, tick, in.goal.at_p90);
      write_output(opt_.output, plan_shard_jsonl(sim::plan_frame(in.variants), in.goal, mine, results, *shard,
                                                 {"plan", opt_.file, ""}));
      return 0;
    }
    const auto results = sim::evaluate_variants(in.variants, opt_.jobs, tick, in.goal.at_p90);
    const sim::PlanReport report = sim::decide(in.variants, results, in.goal);
    write_output(opt_.output, render_plan(report, opt_.format));
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  PlanOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_plan_command(CLI::App& app) { return std::make_unique<PlanCommand>(app); }

}  // namespace ddpsim::app
