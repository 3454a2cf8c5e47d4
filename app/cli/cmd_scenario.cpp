// `ddpsim scenario FILE`: predict a training job's time, scaling and cost.
#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <iterator>

#include "app/input/catalog_loader.hpp"
#include "app/output/html_report.hpp"
#include "app/output/multijob_report.hpp"  // issue 12: several jobs on one fabric
#include "app/input/multijob_loader.hpp"
#include "app/cli/commands.hpp"
#include "app/output/formats.hpp"
#include "app/cli/engine_choice.hpp"
#include "app/output/multi_report.hpp"
#include "app/output/output.hpp"
#include "sim/study/twin.hpp"
#include "app/cli/progress.hpp"
#include "app/cli/shard_option.hpp"
#include "app/input/scenario_loader.hpp"
#include "app/output/trace.hpp"
#include "app/input/yaml_guard.hpp"
#include "app/input/yaml_reader.hpp"
#include "sim/network/guards.hpp"
#include "core/subprocess.hpp"
#include "sim/study/guards.hpp"

namespace ddpsim::app {
namespace {

struct ScenarioOptions {
  std::vector<std::string> files;
  std::string file;  // the one being run (error locations)
  std::string format = "table";
  std::string engine;  // "": the scenario's engine:, else analytical
  std::string output;
  std::string trace;
  std::string trace_config;  // NODES or NODES:FRAMEWORK; "": the last configuration
  bool trace_all_nodes = false;
  int jobs = 1;
  std::string samples = "auto";  // issue 20: auto = what the inputs need (sim/study/twin.hpp)
  bool wide = false;  // issue 20
  std::string max_memory = "4GiB";
  double timeout_s = 0;
  std::string shard;  // issue 11: "I/N", "auto" or "auto/N" (app/output/shards.hpp)
  std::string granularity = "coarse";  // issue 21: "step" times every send (sim/step/step_level.hpp)
  bool per_rank = false;               // issue 21: every rank its own class, no folding
};

class ScenarioCommand final : public Command {
 public:
  explicit ScenarioCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("scenario", "Predict step time, total time, scaling and cost of a training scenario");
    cmd_->add_option("files", opt_.files, "Scenario YAML files (see scenarios/); - reads one from stdin")->required();
    cmd_->add_option("--format", opt_.format, "Output format")->check(CLI::IsMember(report_formats()))->capture_default_str();
    cmd_->add_option("--engine", opt_.engine,
                     "Network backend (default: the scenario's engine:, else analytical)")
        ->check(CLI::IsMember(sim::engine_names()));
    cmd_->add_option("--trace", opt_.trace,
                     "Write a Chrome trace (Perfetto) of one configuration's iteration to this file (default: none)");
    cmd_->add_option("--trace-config", opt_.trace_config,
                     "The configuration --trace draws: NODES or NODES:FRAMEWORK (default: the last row)");
    cmd_->add_flag("--trace-all-nodes", opt_.trace_all_nodes, "Draw every node in the trace (default: the first 16)");
    cmd_->add_option("-j,--jobs", opt_.jobs, "Run the node counts in up to N processes at once")->check(CLI::Range(1, 256))->capture_default_str();
    cmd_->add_option("--samples", opt_.samples,
                     "Latin-hypercube samples for the [p10, p90] intervals, 0 for none; auto: 16 when an uncertain "
                     "input can change a result, else 0")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
              // Whole decimal numbers only: CLI::Range also took "0x10", which std::stoi then read as 0.
              const bool digits = !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
              return s == "auto" || (digits && std::stoi(s) <= 100000) ? "" : "expected auto or a whole number 0..100000, got \"" + s + "\"";
            },
            "auto|0..100000"))
        ->capture_default_str();
    cmd_->add_flag("--wide", opt_.wide, "Table with every column: throughput, the step's breakdown, efficiency, memory "
                                        "and every interval (default: the columns that fit 120 characters)");
    cmd_->add_option("-o,--output", opt_.output, "Write the report to this file (atomically) (default: stdout)");
    cmd_->add_option("--max-memory", opt_.max_memory,
                     "Refuse configurations whose estimated memory exceeds this (docs/reliability.md)")
        ->capture_default_str();
    cmd_->add_option("--timeout", opt_.timeout_s, "Stop a flow simulation after this many seconds (0: no limit)")
        ->check(CLI::Range(0.0, 1e7))->capture_default_str();
    add_shard_option(*cmd_, opt_.shard);  // issue 11
    cmd_->add_option("--granularity", opt_.granularity,
                     "coarse: each gradient reduction as phases priced by NCCL's model and the profile; step: every "
                     "send of its step-level schedule on the catalog's links (no NCCL latency formula or profile; the "
                     "analytical engine prices each send alone, only the flow engine shares links; at most 1024 GPUs, "
                     "256 on the flow engine)")
        ->check(CLI::IsMember({"coarse", "step"}))->capture_default_str();
    cmd_->add_flag("--per-rank", opt_.per_rank,
                   "Simulate every rank as its own rank class, and every rank on the flow engine (no symmetry "
                   "folding) (default: alike ranks folded into one)");
  }

  bool selected() const override { return cmd_->parsed(); }

  // SMDDP and the parameter server exchange between every pair of nodes (sim/network/guards.hpp).
  // Resource and time guards up front (docs/reliability.md), then the run; errors that name a
  // scenario field but no file are located in the scenario file.
  // Runs `body` (the prediction) behind the resource and time-range guards (issue 13).
  sim::ScenarioReport guarded_run(const sim::ScenarioSpec& spec, const sim::RunOptions& run,
                                  const std::function<sim::ScenarioReport()>& body)
  {
    const sim::ResourceLimits limits{sim::parse_max_memory(opt_.max_memory)};
    set_simulation_timeout(opt_.timeout_s);
    try {
      sim::check_scenario_resources(spec, run.engine, run.step_level, limits);
      sim::check_time_range(spec);
      try {
        return body();
      } catch (const OverflowError& e) {
        throw sim::blame_overflow(spec, e.what());
      }
    } catch (const UserError& e) {
      // Issue 20: the CollectiveModel's refusals of a named algorithm carry no field: it is
      // communication.algorithm's (nvls or sharp where the machine has none, a collective it lacks).
      if (e.where().file.empty() && e.field().empty() && e.message().rfind("algorithm \"", 0) == 0)
        throw UserError(locate_field(opt_.file, "communication.algorithm"), "communication.algorithm", e.message());
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
    if (opt_.files.size() > 1 && !opt_.trace.empty())
      throw UserError("--trace: draws one configuration of one scenario; give one file");
    if (std::count(opt_.files.begin(), opt_.files.end(), "-") > 1) throw UserError("files: stdin (-) can be read once");
    // Issue 11: a shard's share (JSON Lines for `ddpsim merge`): one scenario file.
    const std::optional<Shard> shard = shard_of(*cmd_, opt_.shard, opt_.trace);
    if (shard && opt_.files.size() > 1) throw UserError("--shard: shards one scenario; give one file");
    // Issue 12: a file with `jobs:` places several jobs on one fabric (app/output/multijob_report.hpp).
    if (opt_.files.size() == 1 && opt_.files.front() != "-" && is_multijob_file(opt_.files.front())) {
      opt_.file = opt_.files.front();
      if (!opt_.trace.empty()) throw UserError("--trace: not available for a scenario with several jobs (jobs:)");
      if (opt_.granularity != "coarse" || opt_.per_rank)
        throw UserError(std::string(opt_.per_rank ? "--per-rank" : "--granularity") +
                        ": not available for a scenario with several jobs (jobs:)");
      if (shard) throw UserError("--shard: not available for a scenario with several jobs (jobs:)");
      set_simulation_timeout(opt_.timeout_s);
      return run_multijob();
    }
    std::vector<sim::ScenarioReport> reports;
    for (const std::string& f : opt_.files) reports.push_back(run_one(f, shard));
    if (shard) {
      write_output(opt_.output,
                   scenario_shard_jsonl(reports.front(), *shard,
                                        {"scenario", opt_.file, "engine=" + opt_.engine + " samples=" + opt_.samples +
                                             (opt_.granularity != "coarse" ? " granularity=" + opt_.granularity : "") +
                                             (opt_.per_rank ? " per-rank" : "")}));
      return 0;
    }
    write_output(opt_.output, render(reports));
    return 0;
  }

 private:
  // A file with `jobs:` (issue 12): loaded and run on --engine (else the file's engine:, else
  // analytical) behind the --max-memory guard; errors that name a field are located in the file.
  int run_multijob() const
  {
    const sim::MultiJobSpec spec = load_multijob(opt_.file, builtin_catalog());
    sim::MultiJobReport rep;
    try {
      const sim::EngineKind kind = resolve_engine(opt_.engine, spec.engine);  // --engine, else the file's engine:
      // The whole cluster on the flow engine (each job alone, then all together) is the largest run.
      const int gpn = spec.gpus_per_node > 0 ? spec.gpus_per_node : spec.instance.gpus;
      if (kind == sim::EngineKind::flow)
        sim::check_resources(spec.nodes, gpn, kind, sim::Workload::ring, sim::ResourceLimits{sim::parse_max_memory(opt_.max_memory)},
                             "cluster.nodes");
      rep = sim::run_multijob(spec, kind);
    } catch (const UserError& e) {
      if (!e.where().file.empty() || e.field().empty() || e.field().rfind("--", 0) == 0) throw;  // as guarded_run
      throw UserError(locate_field(opt_.file, e.field()), e.field(), e.message());
    }
    write_output(opt_.output, opt_.format == "json"   ? multijob_json(rep)
                             : opt_.format == "csv"  ? multijob_csv(rep)
                             : opt_.format == "html" ? multijob_html(rep)
                                                     : multijob_table(rep));
    return 0;
  }

  sim::ScenarioReport run_one(const std::string& file, const std::optional<Shard>& shard)
  {
    opt_.file = file;
    const Catalog catalog = builtin_catalog();
    const sim::ScenarioSpec spec =
        file == "-" ? parse_scenario("<stdin>", read_capped(std::cin, "<stdin>"), catalog)
                    : load_scenario(file, catalog);
    sim::RunOptions run;
    run.engine = resolve_engine(opt_.engine, spec);
    run.jobs = opt_.jobs;
    run.step_level = opt_.granularity == "step";  // issue 21
    run.per_rank = opt_.per_rank;
    if (shard) run.shard_index = shard->index, run.shard_count = shard->count;
    Progress progress("configurations");  // issue 11: on a terminal, for runs over a second
    run.progress = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    sim::Timeline timeline;
    if (!opt_.trace.empty()) {
      run.timeline = &timeline;
      parse_trace_config(run);
    }
    sim::ScenarioReport report =
        guarded_run(spec, run, [&] { return sim::predict(spec, run, opt_.samples == "auto" ? sim::kDefaultSamples : std::stoi(opt_.samples)); });
    sim::add_engine_warnings(spec, run.engine, report);
    if (run.step_level)  // issue 21: the table says so too (JSON: "granularity")
      report.notes.push_back("granularity step: each gradient reduction timed from every send of its schedule on the "
                             "catalog's links (no NCCL latency formula or profile)");
    if (run.per_rank) report.notes.push_back("--per-rank: every rank simulated as its own rank class, none folded");
    if (!opt_.trace.empty()) {
      const sim::ConfigResult& shown = traced(report, run);
      for (const sim::WhatIfResult& w : shown.whatifs) add_whatif_steps(timeline, w);  // issue 20
      TraceLayout layout{shown.nodes, shown.gpus / std::max(1, shown.nodes)};
      if (opt_.trace_all_nodes) layout.max_nodes = shown.nodes;
      write_output(opt_.trace, chrome_trace_json(timeline, {{"algorithm", shown.algorithm},
                                                            {"engine", report.engine},
                                                            {"framework", shown.framework},
                                                            {"nodes", std::to_string(shown.nodes)}},
                                                 layout));
    }
    return report;
  }

  // --trace-config NODES[:FRAMEWORK].
  void parse_trace_config(sim::RunOptions& run) const
  {
    if (opt_.trace_config.empty()) return;
    const std::string& t = opt_.trace_config;
    const auto colon = t.find(':');
    const std::string nodes = t.substr(0, colon);
    char* end = nullptr;
    const long n = std::strtol(nodes.c_str(), &end, 10);
    if (nodes.empty() || *end != '\0' || n < 1 || n > 65536)
      throw UserError("--trace-config: expected NODES or NODES:FRAMEWORK, e.g. 8 or 8:smddp, not \"" + t + "\"");
    run.trace_nodes = static_cast<int>(n);
    if (colon != std::string::npos) {
      run.trace_framework = sim::parse_framework(t.substr(colon + 1));
      if (!run.trace_framework) throw UserError("--trace-config: unknown framework \"" + t.substr(colon + 1) + "\"");
    }
  }

  static const sim::ConfigResult& traced(const sim::ScenarioReport& report, const sim::RunOptions& run)
  {
    if (run.trace_nodes > 0)
      for (const sim::ConfigResult& r : report.results)
        if (r.nodes == run.trace_nodes && r.compiler.empty() &&
            (!run.trace_framework || r.framework == sim::to_string(*run.trace_framework)))
          return r;
    return report.results.back();
  }

  // One report as before; several: tables one after the other, a JSON array, or one CSV table
  // with the scenario's name in a first column.
  std::string render(const std::vector<sim::ScenarioReport>& reports) const
  {
    auto one = [&](const sim::ScenarioReport& r) { return render_scenario(r, opt_.format, opt_.wide); };
    if (reports.size() == 1) return one(reports.front());
    if (opt_.format == "html") throw UserError("--format html: one scenario per page; give one file");
    std::string out;
    if (opt_.format == "json") {
      out = "[\n";
      for (std::size_t i = 0; i < reports.size(); ++i) {
        std::string j = one(reports[i]);
        j.pop_back();  // the newline
        out += j + (i + 1 < reports.size() ? ",\n" : "\n");
      }
      return out + "]\n";
    }
    if (opt_.format == "csv") return scenarios_csv(reports);
    for (std::size_t i = 0; i < reports.size(); ++i) out += (i ? "\n" : "") + one(reports[i]);
    return out;
  }

  CLI::App* cmd_ = nullptr;
  ScenarioOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_scenario_command(CLI::App& app) { return std::make_unique<ScenarioCommand>(app); }

}  // namespace ddpsim::app
