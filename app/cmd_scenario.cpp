// `ddpsim scenario FILE`: predict a training job's time, scaling and cost.
#include <CLI/CLI.hpp>

#include "app/catalog_loader.hpp"
#include "app/commands.hpp"
#include "app/output.hpp"
#include "app/predict.hpp"
#include "app/report.hpp"
#include "app/scenario_loader.hpp"
#include "app/trace.hpp"

namespace ddpsim::app {
namespace {

struct ScenarioOptions {
  std::string file;
  std::string format = "table";
  std::string engine = "analytical";
  std::string output;
  std::string trace;
  int jobs = 1;
  int samples = kDefaultSamples;
};

class ScenarioCommand final : public Command {
 public:
  explicit ScenarioCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("scenario", "Predict step time, total time, scaling and cost of a training scenario");
    cmd_->add_option("file", opt_.file, "Scenario YAML (see scenarios/)")->required();
    cmd_->add_option("--format", opt_.format, "Output format")->check(CLI::IsMember({"table", "json", "csv"}));
    cmd_->add_option("--engine", opt_.engine, "Network backend")->check(CLI::IsMember(sim::engine_names()));
    cmd_->add_option("--trace", opt_.trace,
                     "Write a Chrome trace (Perfetto) of the last configuration's iteration to this file");
    cmd_->add_option("-j,--jobs", opt_.jobs, "Run the node counts in up to N processes at once")->check(CLI::Range(1, 256));
    cmd_->add_option("--samples", opt_.samples,
                     "Latin-hypercube samples for the [p10, p90] intervals (0: none)")
        ->check(CLI::Range(0, 100000));
    cmd_->add_option("-o,--output", opt_.output, "Write the report to this file (atomically) instead of stdout");
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const sim::ScenarioSpec spec = load_scenario(opt_.file, catalog);
    sim::RunOptions run;
    run.engine = sim::parse_engine(opt_.engine);
    run.jobs = opt_.jobs;
    sim::Timeline timeline;
    if (!opt_.trace.empty()) run.timeline = &timeline;
    const sim::ScenarioReport report = predict(spec, catalog, run, opt_.samples);
    if (!opt_.trace.empty()) {
      const sim::ConfigResult& last = report.results.back();
      write_output(opt_.trace, chrome_trace_json(timeline, {{"algorithm", last.algorithm},
                                                            {"engine", report.engine},
                                                            {"nodes", std::to_string(last.nodes)}},
                                                 TraceLayout{last.nodes, last.gpus / std::max(1, last.nodes)}));
    }
    const std::string text = opt_.format == "json"  ? scenario_json(report)
                             : opt_.format == "csv" ? scenario_csv(report)
                                                    : scenario_table(report);
    write_output(opt_.output, text);
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  ScenarioOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_scenario_command(CLI::App& app) { return std::make_unique<ScenarioCommand>(app); }

}  // namespace ddpsim::app
