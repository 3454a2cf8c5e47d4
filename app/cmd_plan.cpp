// `ddpsim plan FILE`: search instances x nodes x frameworks x settings against a deadline and a
// budget; prints the recommendation and why, the time/cost Pareto frontier and what was excluded.
#include <CLI/CLI.hpp>

#include "app/catalog_loader.hpp"
#include "app/commands.hpp"
#include "app/html_report.hpp"
#include "app/output.hpp"
#include "app/plan_loader.hpp"
#include "app/plan_report.hpp"

namespace ddpsim::app {
namespace {

struct PlanOptions {
  std::string file;
  std::string format = "table";
  std::string output;
  int jobs = 1;
};

class PlanCommand final : public Command {
 public:
  explicit PlanCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("plan", "Search configurations against a deadline and a budget (recommendation, Pareto frontier)");
    cmd_->add_option("file", opt_.file, "Plan YAML: a scenario with lists/ranges and a goal (see scenarios/plans/)")
        ->required();
    cmd_->add_option("--format", opt_.format, "Output format")
        ->check(CLI::IsMember({"table", "json", "csv", "html"}))
        ->capture_default_str();
    cmd_->add_option("-j,--jobs", opt_.jobs, "Evaluate variants in up to N processes at once")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd_->add_option("-o,--output", opt_.output, "Write the report to this file (atomically) instead of stdout");
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const PlanInput in = load_plan(opt_.file, catalog);
    const auto results = sim::evaluate_variants(in.variants, opt_.jobs);
    const sim::PlanReport report = sim::decide(in.variants, results, in.goal);
    const std::string text = opt_.format == "json"  ? plan_json(report)
                             : opt_.format == "csv"  ? plan_csv(report)
                             : opt_.format == "html" ? plan_html(report)
                                                     : plan_table(report);
    write_output(opt_.output, text);
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  PlanOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_plan_command(CLI::App& app) { return std::make_unique<PlanCommand>(app); }

}  // namespace ddpsim::app
