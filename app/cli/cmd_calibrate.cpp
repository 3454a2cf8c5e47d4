// `ddpsim calibrate fit FILES... --instance NAME --out PROFILE.yaml`: fit a profile to
// nccl-tests logs (text or CSV) and write it atomically, with provenance and per-point residuals.
// `ddpsim calibrate run --instance NAME --out PROFILE.yaml`: measure all-reduce with NCCL on this
// machine's GPUs (calibrate/nccl_runner.hpp), keep the raw log, and fit it the same way.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>

#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "app/cli/cmd_calibrate_job.hpp"
#include "app/cli/cli_names.hpp"
#include "app/cli/commands.hpp"
#include "app/output/output.hpp"
#include "app/input/profile_io.hpp"
#include "app/input/yaml_reader.hpp"
#include "app/cli/cmd_calibrate_export.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/nccl_log.hpp"
#include "calibrate/nccl_runner.hpp"
#include "core/text.hpp"
#include "sim/study/model_error.hpp"
#include "sim/network/guards.hpp"

namespace ddpsim::app {
namespace {

struct CalibrateOptions {
  std::vector<std::string> files;
  std::string instance;
  std::string out;
  std::string algo = "auto";
  // calibrate run
  std::string log;
  std::string min_bytes = "8", max_bytes = "1G";
  calibrate::NcclSweep sweep;
};

class CalibrateCommand final : public Command {
 public:
  explicit CalibrateCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("calibrate", "Fit calibration profiles to measurements");
    cmd_->require_subcommand(1);
    fit_ = cmd_->add_subcommand("fit", "Fit a profile to nccl-tests all_reduce_perf logs (text or CSV)");
    fit_->add_option("files", opt_.files, "nccl-tests outputs")->required()->check(CLI::ExistingFile);
    fit_->add_option("--instance", opt_.instance, "Instance type the logs were measured on")->required();
    fit_->add_option("-o,--output", opt_.out, "Profile to write (YAML) (required)");
    add_hidden_alias(fit_, "--out", opt_.out);
    std::vector<std::string> algos{"auto"};
    for (std::string_view n : algo::Registry::instance().names()) algos.emplace_back(n);
    fit_->add_option("--algorithm", opt_.algo, "Algorithm the logs ran (NCCL_ALGO); auto = NCCL's own choice")
        ->check(CLI::IsMember(algos));
    add_hidden_alias(fit_, "--algo", opt_.algo)->check(CLI::IsMember(algos));

    run_ = cmd_->add_subcommand("run", std::string("Measure all-reduce with NCCL on this machine's GPUs, then fit") +
                                           (calibrate::nccl_runner_available() ? "" : " (not in this build: no CUDA/NCCL)"));
    run_->add_option("--instance", opt_.instance, "Instance type of this machine")->required();
    run_->add_option("-o,--output", opt_.out, "Profile to write (YAML) (required)");
    add_hidden_alias(run_, "--out", opt_.out);
    run_->add_option("--log", opt_.log, "Where to keep the measured nccl-tests log (default: PROFILE.nccl-tests.txt)");
    run_->add_option("-b,--min-bytes", opt_.min_bytes, "Smallest size");
    run_->add_option("-e,--max-bytes", opt_.max_bytes, "Largest size");
    run_->add_option("-f,--factor", opt_.sweep.factor, "Size multiplier")->check(CLI::Range(2, 1024));
    run_->add_option("--iters", opt_.sweep.iters, "Timed iterations per size")->check(CLI::Range(1, 100000));
    run_->add_option("--warmup", opt_.sweep.warmup, "Warm-up iterations per size")->check(CLI::Range(0, 100000));
    run_->add_option("--gpus-per-node", opt_.sweep.gpus, "GPUs to use (default: all visible)")->check(CLI::Range(1, 64));
    run_->add_option("--gpus", opt_.sweep.gpus, "alias")->group("")->check(CLI::Range(1, 64));  // the older spelling
    add_calibrate_job(*cmd_, job_opt_, job_);
    add_calibrate_export(*cmd_, export_opt_, export_);  // issue 20
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    if (job_->parsed()) return run_calibrate_job(job_opt_);
    if (export_->parsed()) return run_calibrate_export(export_opt_);
    require_option(opt_.out, "--output");
    const Catalog catalog = builtin_catalog();
    const InstanceSpec* inst = &catalog.at(opt_.instance);
    std::vector<calibrate::NcclLog> logs;
    if (run_->parsed()) {
      logs.push_back(measure());
    } else {
      for (const std::string& f : opt_.files) logs.push_back(calibrate::parse_nccl_log(f, read_text_file(f)));
    }
    // Guard: a log's rank count sizes the topology the fit builds (docs/reliability.md).
    for (const calibrate::NcclLog& log : logs) {
      const auto [nodes, gpn] = calibrate::log_shape(*inst, log);
      try {
        sim::check_resources(nodes, gpn, sim::EngineKind::analytical, sim::Workload::collective, sim::ResourceLimits{},
                             "ranks");
      } catch (const UserError& e) {
        throw UserError(SourceLocation{log.file, log.rows.front().line, 1}, e.field(), e.message());
      }
    }
    // Everything is parsed and fitted before the output is touched; write_output is atomic.
    const sim::Profile prof = calibrate::fit_profile(*inst, logs, opt_.algo);
    refuse_implausible(catalog, prof, logs);
    write_output(opt_.out, profile_yaml(prof));
    for (const std::string& a : prof.provenance.assumed) std::cerr << "ddpsim: assumed " << a << "\n";
    for (const std::string& w : prof.warnings) std::cerr << "ddpsim: warning: " << w << "\n";
    double worst = 0, worst_held_out = 0;
    for (const auto& r : prof.residuals) {
      worst = std::max(worst, std::abs(r.error()));
      if (r.held_out_us > 0) worst_held_out = std::max(worst_held_out, std::abs(r.held_out_us / r.measured_us - 1));
    }
    std::cerr << "ddpsim: fitted " << prof.residuals.size() << " points from " << logs.size() << " file(s); largest |error| "
              << std::round(worst * 1000) / 10.0 << "% (each point predicted by the fit without it: "
              << std::round(worst_held_out * 1000) / 10.0 << "%); wrote " << opt_.out << "\n";
    // The bands the profile will put on predictions (sim/study/collective_band.hpp), said now.
    for (const bool across : {false, true}) {
      const sim::ResidualSpread s = sim::profile_residual_spread(prof, across);
      if (s.rows < 2) continue;
      std::cerr << "ddpsim: " << (across ? "across nodes" : "one node") << ": predictions carry time x exp(N(0, "
                << fmt("%.3f", s.ln_sd) << "^2)) from " << s.rows << (s.held_out ? " held-out" : " in-sample") << " residuals"
                << (across ? ", widening beyond " + std::to_string(s.max_nodes) + " node(s)" : std::string()) << "\n";
    }
    if (const std::uint64_t below = sim::unfitted_latency_below(prof); below > 0)
      std::cerr << "ddpsim: note: the rows across nodes start at " << format_bytes(Bytes{below})
                << " (none below 1 MiB): the latency was not fitted, so below that size collectives across nodes are priced "
                   "with the catalog's latency and carry the catalog price's error (sd "
                << fmt("%.3f", sim::network_price_ln_sd()) << "); a log from 8 B (nccl-tests -b 8) fits it\n";
    return 0;
  }

 private:
  // Runs the NCCL sweep, keeps its log next to the profile, and parses it like any nccl-tests log.
  calibrate::NcclLog measure()
  {
    try {
      opt_.sweep.min_bytes = parse_bytes(opt_.min_bytes).n;
      opt_.sweep.max_bytes = parse_bytes(opt_.max_bytes).n;
    } catch (const ValueError& e) {
      throw UserError(std::string("--min-bytes/--max-bytes: ") + e.what());
    }
    const calibrate::NcclRun run = calibrate::run_nccl_allreduce(opt_.sweep);
    const std::string log_path = opt_.log.empty() ? opt_.out + ".nccl-tests.txt" : opt_.log;
    const std::string text = calibrate::format_nccl_tests(run);
    write_output(log_path, text);
    // One GPU: NCCL runs the all-reduce as a local copy; the log holds NCCL's per-call floor and
    // the copy rate, but nothing between GPUs, so there is nothing to fit (kept, not fitted).
    if (run.gpus < 2)
      throw UserError("--gpus-per-node: 1 GPU (" + run.device + ", NCCL " + run.nccl_version +
                                             "): an all-reduce among 1 rank moves nothing between GPUs, so there is "
                                             "nothing to fit; the measured log is kept in " +
                                             log_path + fmt(" (NCCL's per-call floor %.1f us)", run.points.front().time_us));
    calibrate::NcclLog log = calibrate::parse_nccl_log(log_path, text);
    log.nodes = 1;  // one process on this machine's GPUs
    return log;
  }

  // A physically impossible fit is not written: the error names the instances the logs do fit.
  void refuse_implausible(const Catalog& catalog, const sim::Profile& prof, const std::vector<calibrate::NcclLog>& logs) const
  {
    const auto bad = calibrate::implausible(prof);
    if (!bad) return;
    const std::string fits = join(calibrate::plausible_instances(catalog.instances, logs, opt_.algo, prof.instance), ", ");
    throw UserError(bad->where, "--instance",
                    bad->reason + "; not written. Likely the wrong instance" +
                        (fits.empty() ? std::string(" or a broken log") : "; the logs fit plausibly as: " + fits));
  }

  CLI::App* cmd_ = nullptr;
  CLI::App* fit_ = nullptr;
  CLI::App* run_ = nullptr;
  CLI::App* job_ = nullptr;
  CalibrateOptions opt_;
  JobCommandOptions job_opt_;
  CLI::App* export_ = nullptr;
  ExportCommandOptions export_opt_;
};

}  // namespace

std::unique_ptr<Command> make_calibrate_command(CLI::App& app) { return std::make_unique<CalibrateCommand>(app); }

}  // namespace ddpsim::app
