// `ddpsim scenario FILE`: predict a training job's time, scaling and cost.
#include <CLI/CLI.hpp>
#include <functional>

#include "app/catalog_loader.hpp"
#include "app/commands.hpp"
#include "app/html_report.hpp"
#include "app/output.hpp"
#include "app/predict.hpp"
#include "app/report.hpp"
#include "app/scenario_loader.hpp"
#include "app/trace.hpp"
#include "app/yaml_reader.hpp"
#include "sim/network/guards.hpp"
#include "sim/network/subprocess.hpp"
#include "sim/training/guards.hpp"

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
  std::string max_memory = "4GiB";
  double timeout_s = 0;
};

class ScenarioCommand final : public Command {
 public:
  explicit ScenarioCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("scenario", "Predict step time, total time, scaling and cost of a training scenario");
    cmd_->add_option("file", opt_.file, "Scenario YAML (see scenarios/)")->required();
    cmd_->add_option("--format", opt_.format, "Output format")->check(CLI::IsMember({"table", "json", "csv", "html"}));
    cmd_->add_option("--engine", opt_.engine, "Network backend")->check(CLI::IsMember(sim::engine_names()));
    cmd_->add_option("--trace", opt_.trace,
                     "Write a Chrome trace (Perfetto) of the last configuration's iteration to this file");
    cmd_->add_option("-j,--jobs", opt_.jobs, "Run the node counts in up to N processes at once")->check(CLI::Range(1, 256));
    cmd_->add_option("--samples", opt_.samples,
                     "Latin-hypercube samples for the [p10, p90] intervals (0: none)")
        ->check(CLI::Range(0, 100000));
    cmd_->add_option("-o,--output", opt_.output, "Write the report to this file (atomically) instead of stdout");
    cmd_->add_option("--max-memory", opt_.max_memory,
                     "Refuse configurations whose estimated memory exceeds this (docs/reliability.md)")
        ->capture_default_str();
    cmd_->add_option("--timeout", opt_.timeout_s, "Stop a flow simulation after this many seconds (0: no limit)")
        ->check(CLI::Range(0.0, 1e7));
  }

  bool selected() const override { return cmd_->parsed(); }

  // SMDDP and the parameter server exchange between every pair of nodes (sim/network/guards.hpp).
  static sim::Workload workload(const sim::ScenarioSpec& spec)
  {
    std::vector<sim::Framework> all{spec.training.framework};
    all.insert(all.end(), spec.training.compare.begin(), spec.training.compare.end());
    for (sim::Framework f : all)
      if (f == sim::Framework::smddp || f == sim::Framework::parameter_server) return sim::Workload::all_to_all;
    return sim::Workload::ring;
  }

  // Resource and time guards up front (docs/reliability.md), then the run; errors that name a
  // scenario field but no file are located in the scenario file.
  // Runs `body` (the prediction) behind the resource and time-range guards (issue 13).
  sim::ScenarioReport guarded_run(const sim::ScenarioSpec& spec, const sim::RunOptions& run,
                                  const std::function<sim::ScenarioReport()>& body)
  {
    const sim::ResourceLimits limits{sim::parse_max_memory(opt_.max_memory)};
    sim::set_simulation_timeout(opt_.timeout_s);
    try {
      for (std::size_t i = 0; i < spec.cluster.nodes.size(); ++i) {
        const int gpn = !spec.cluster.gpus_per_node_each.empty() ? spec.cluster.gpus_per_node_each[i]
                        : spec.cluster.gpus_per_node > 0          ? spec.cluster.gpus_per_node
                                                                  : spec.cluster.instance.gpus;
        sim::check_resources(spec.cluster.nodes[i], gpn, run.engine, workload(spec), limits, "cluster.nodes");
      }
      sim::check_time_range(spec);
      try {
        return body();
      } catch (const OverflowError& e) {
        throw sim::blame_overflow(spec, e.what());
      }
    } catch (const UserError& e) {
      if (!e.where().file.empty() || e.field().empty() || e.field().rfind("--", 0) == 0) throw;
      bool exact = false;
      const SourceLocation at = locate_field(opt_.file, e.field(), &exact);
      // A catalog value the file does not set (e.g. the NIC bandwidth): blame the model's size.
      if (!exact && e.field() == "cluster.overrides.nic.bandwidth")
        throw UserError(locate_field(opt_.file, "model"), "model", e.message());
      throw UserError(at, e.field(), e.message());
    }
  }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const sim::ScenarioSpec spec = load_scenario(opt_.file, catalog);
    sim::RunOptions run;
    run.engine = sim::parse_engine(opt_.engine);
    run.jobs = opt_.jobs;
    sim::Timeline timeline;
    if (!opt_.trace.empty()) run.timeline = &timeline;
    const sim::ScenarioReport report =
        guarded_run(spec, run, [&] { return predict(spec, catalog, run, opt_.samples); });
    if (!opt_.trace.empty()) {
      const sim::ConfigResult& last = report.results.back();
      write_output(opt_.trace, chrome_trace_json(timeline, {{"algorithm", last.algorithm},
                                                            {"engine", report.engine},
                                                            {"nodes", std::to_string(last.nodes)}},
                                                 TraceLayout{last.nodes, last.gpus / std::max(1, last.nodes)}));
    }
    const std::string text = opt_.format == "json"  ? scenario_json(report)
                             : opt_.format == "csv"  ? scenario_csv(report)
                             : opt_.format == "html" ? scenario_html(report)
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
