// `ddpsim collective`: predict an nccl-tests sweep (all_reduce_perf and friends) on N nodes of an
// instance, with a fitted profile or the catalog alone. --format nccl-tests prints the columns of
// all_reduce_perf so the prediction can be put next to a real log (app/output/collective_report.hpp).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "app/cli/cli_names.hpp"
#include "app/cli/commands.hpp"
#include "app/output/collective_report.hpp"
#include "app/output/explain_report.hpp"
#include "app/output/output.hpp"
#include "app/output/text_format.hpp"
#include "app/input/profile_io.hpp"
#include "app/input/transport_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "calibrate/collective_sweep.hpp"
#include "calibrate/nccl_tests.hpp"
#include "core/text.hpp"
#include "sim/network/collective_model.hpp"
#include "calibrate/log_env.hpp"
#include "calibrate/launch_floor.hpp"
#include "calibrate/nccl_log.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/guards.hpp"
#include "sim/study/collective_band.hpp"
#include "sim/study/model_error.hpp"
#include "core/subprocess.hpp"

namespace ddpsim::app {
namespace {

struct CollectiveOptions {
  std::string instance;
  int nodes = 1;
  int gpus_per_node = 0;
  std::string op = "all_reduce";
  std::string algo = "auto";
  std::string proto = "auto";
  std::string tuner = "aws-ofi";
  std::string min_bytes = "8";
  std::string max_bytes = "8G";
  int factor = 2;
  std::string profile;
  std::string format = "nccl-tests";
  std::string engine = "analytical";
  std::string output;
  std::string compare;
  bool explain = false;  // --explain: NCCL's candidates per size
  std::string software;  // --software (issue 18)
  std::string max_memory = "4GiB";
  double timeout_s = 0;
};


Bytes parse_size(const std::string& flag, const std::string& text)
{
  try {
    return parse_bytes(text);
  } catch (const ValueError& e) {
    throw UserError(flag + ": " + e.what());
  }
}

class CollectiveCommand final : public Command {
 public:
  explicit CollectiveCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("collective", "Predict an nccl-tests sweep of one collective on N nodes");
    cmd_->add_option("--instance", opt_.instance, "Instance type (see `ddpsim catalog`)")->required();
    cmd_->add_option("--nodes", opt_.nodes, "Nodes")->capture_default_str()->check(CLI::Range(1, 65536));
    cmd_->add_option("--gpus-per-node", opt_.gpus_per_node, "GPUs per node (default: all)")->check(CLI::Range(1, 64));
    cmd_->add_option("--op", opt_.op, "Collective")
        ->check(CLI::IsMember({"all_reduce", "reduce_scatter", "all_gather", "broadcast"}));
    std::vector<std::string> algos{"auto"};
    for (std::string_view n : algo::Registry::instance().names()) algos.emplace_back(n);
    cmd_->add_option("--algorithm", opt_.algo, "Algorithm (`ddpsim algorithms`), or auto (NCCL's choice per size)")
        ->check(CLI::IsMember(algos));
    add_hidden_alias(cmd_, "--algo", opt_.algo)->check(CLI::IsMember(algos));
    cmd_->add_option("--proto", opt_.proto, "NCCL protocol, or auto")->check(CLI::IsMember({"auto", "LL", "LL128", "Simple"}));
    cmd_->add_option("--tuner", opt_.tuner,
                     "Who makes NCCL's choice: aws-ofi (aws-ofi-nccl's tuner plugin where it has tables: p5/p5e/p5en "
                     "above 2 nodes), nccl or none (NCCL's own model)")
        ->capture_default_str()
        ->check(CLI::IsMember({"aws-ofi", "nccl", "none"}));
    cmd_->add_option("--min-bytes,-b", opt_.min_bytes, "Smallest size (e.g. 8, 1M)");
    cmd_->add_option("--max-bytes,-e", opt_.max_bytes, "Largest size (e.g. 8G)");
    cmd_->add_option("--factor,-f", opt_.factor, "Size multiplier between rows")->check(CLI::Range(2, 1024));
    cmd_->add_option("--profile", opt_.profile,
                     "Calibration profile (YAML); none: catalog alone (default: the shipped one for the instance)");
    cmd_->add_option("--format", opt_.format, "Output format")->check(CLI::IsMember({"nccl-tests", "json", "csv"}));
    cmd_->add_option("--engine", opt_.engine, "Network backend")->capture_default_str()->check(CLI::IsMember(sim::engine_names()));
    cmd_->add_option("-o,--output", opt_.output, "Write to this file (atomically) (default: stdout)");
    cmd_->add_option("--software", opt_.software,
                     "Software stack, placement group and pod network, e.g. nccl=2.4.6,aws_ofi_nccl=none,placement_group=true "
                     "(docs/scenario.md `software:`; default: the current stack, no placement group)");
    cmd_->add_option("--compare", opt_.compare,
                     "An nccl-tests log (text or CSV): predict its sizes and add measured time, busbw and errors (default: none)")
        ->check(CLI::ExistingFile);
    cmd_->add_flag("--explain", opt_.explain,
                   "For each size, every algorithm and protocol NCCL's choice weighs: NCCL's estimate, ddpsim's time, "
                   "and who chose (aws-ofi-nccl's tuner, NCCL's model, NCCL_ALGO/NCCL_PROTO)")
        ->excludes("--compare");
    cmd_->add_option("--max-memory", opt_.max_memory,
                     "Refuse clusters whose estimated memory exceeds this (docs/reliability.md)")
        ->capture_default_str();
    cmd_->add_option("--timeout", opt_.timeout_s, "Stop a flow simulation after this many seconds (0: no limit)")
        ->check(CLI::Range(0.0, 1e7));
  }

  bool selected() const override { return cmd_->parsed(); }

  // Issue 18: across nodes without a fitted network profile, how far the catalog's price has been
  // from the multi-node collectives the project measured (sim/study/model_error.cpp); said once the
  // prediction stands, so that an error is the only line a failed run prints.
  void say_network_error(const sim::Profile& prof) const
  {
    if (opt_.nodes <= 1 || prof.network.fitted) return;
    std::fprintf(stderr,
                 "ddpsim: note: the network is priced by the catalog alone (no fitted profile): %s; fit a profile on a "
                 "log of yours (ddpsim calibrate fit)\n",
                 sim::network_price_record().c_str());
  }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const InstanceSpec* inst = &catalog.at(opt_.instance);
    // The one default-profile rule and instance check (app/input/profile_io.hpp), as in scenarios.
    const ResolvedProfile resolved = resolve_profile(inst->name, opt_.profile);
    const sim::Profile& prof = resolved.profile;
    const std::string& prof_name = resolved.source;
    // The profile's forced algorithm (NCCL_ALGO of its logs), by the one rule (sim/network/profile.hpp).
    const algo::CollectiveOp op = calibrate::parse_op(opt_.op);
    if (auto forced = sim::profile_algorithm(prof, cmd_->count("--algorithm") + cmd_->count("--algo") > 0, op))
      opt_.algo = std::move(*forced);
    const Bytes lo = parse_size("--min-bytes", opt_.min_bytes), hi = parse_size("--max-bytes", opt_.max_bytes);
    if (lo.n == 0 || hi < lo) throw UserError("--min-bytes/--max-bytes: need 0 < min <= max");
    std::optional<algo::Protocol> proto;
    if (opt_.proto != "auto") {
      algo::Protocol p{};
      algo::parse_protocol(opt_.proto, p);
      proto = p;
    }
    const int gpn = opt_.gpus_per_node > 0 ? std::min(opt_.gpus_per_node, inst->gpus) : inst->gpus;
    // Guards before anything is built (docs/reliability.md).
    sim::check_resources(opt_.nodes, gpn, sim::parse_engine(opt_.engine), sim::Workload::collective,
                         sim::ResourceLimits{sim::parse_max_memory(opt_.max_memory)}, "--nodes");
    set_simulation_timeout(opt_.timeout_s);
    InstanceSpec spec = *inst;
    std::optional<calibrate::NcclLog> log;
    if (!opt_.compare.empty()) log = calibrate::parse_nccl_log(opt_.compare, read_text_file(opt_.compare));
    // The choice the log's environment implies (NCCL_ALGO, NCCL_PROTO, the tuner), as `calibrate
    // fit` and `expect --check` price it, where neither the command line nor the profile names one.
    algo::Tuner tuner{};
    algo::parse_tuner(opt_.tuner, tuner);
    if (log) {
      const calibrate::LogChoice choice = calibrate::log_choice(*log);
      const bool named = cmd_->count("--algorithm") + cmd_->count("--algo") > 0 || opt_.algo != "auto";
      const bool takes = (!named && choice.algorithm != "auto") || (!proto && choice.protocol) ||
                         (cmd_->count("--tuner") == 0 && choice.tuner != tuner);
      if (!named && choice.algorithm != "auto") opt_.algo = choice.algorithm;
      if (!proto && choice.protocol) proto = choice.protocol;
      if (cmd_->count("--tuner") == 0) tuner = choice.tuner;
      if (takes)
        std::fprintf(stderr, "ddpsim: note: %s: priced with the choice its environment implies: %s (--algorithm, --proto, "
                             "--tuner to override)\n", opt_.compare.c_str(), choice.why.c_str());
    }
    // What the log says NCCL ran (its banner's release, NCCL_BUFFSIZE, channels, sockets, GPUDirect)
    // is priced, unless --software names it.
    TransportSpec transport = opt_.software.empty() ? TransportSpec{} : parse_transport_option("--software", opt_.software);
    const calibrate::LogSoftware taken =
        log ? calibrate::take_log_software(*log, spec.nic, transport) : calibrate::LogSoftware{};
    for (const std::string& note : taken.notes) std::fprintf(stderr, "ddpsim: note: %s\n", note.c_str());
    if (const std::string note = as_of_note(transport, /*horovod=*/false); !note.empty()) std::fprintf(stderr, "ddpsim: note: %s\n", note.c_str());
    if (log && log->gpus_per_thread > 1)
      std::fprintf(stderr,
                   "ddpsim: note: %s ran one host thread per %d GPUs (nGpus %d): each iteration is at least %d x %.2f us of "
                   "NCCL host calls (docs/calibration.md)\n",
                   opt_.compare.c_str(), log->gpus_per_thread, log->gpus_per_thread, log->gpus_per_thread,
                   calibrate::kNcclHostCallUs);
    if (!opt_.software.empty() || taken.changed) apply_transport(spec, transport);
    if (taken.host_staged) spec.nic.gpudirect = false;  // EFA through host memory (topology/routing.cpp)
    if (const std::string note = pod_network_note(transport, spec); !note.empty()) std::fprintf(stderr, "ddpsim: note: %s\n", note.c_str());
    if (const std::string note = rail_striping_note(transport, spec); !note.empty() && opt_.nodes > 1)
      std::fprintf(stderr, "ddpsim: note: %s\n", note.c_str());
    if (const std::string note = libfabric_note(transport, spec); !note.empty() && opt_.nodes > 1)
      std::fprintf(stderr, "ddpsim: note: %s\n", note.c_str());
    // Herring is SMDDP's schedule, the parameter server ps-lite's: each on its library's transport,
    // not NCCL's path through aws-ofi-nccl, which the read-protocol note is about.
    const char* library = opt_.algo == "herring" ? "smddp" : opt_.algo == "parameter-server" ? "ps" : nullptr;
    const std::string mid_size_note = opt_.nodes > 1 && !library ? mid_size_read_note(transport, spec) : "";
    if (library) spec.nic = nic_for_library(library, spec.nic, gpn);
    const Topology topo(spec, opt_.nodes, gpn);
    const auto net = sim::make_backend(sim::parse_engine(opt_.engine), topo);
    sim::CollectiveOptions copt{opt_.algo, proto, prof, {}, {}, 0};
    copt.tuner = tuner;
    const sim::CollectiveModel model(topo, copt);
    if (opt_.explain) {
      const std::string title = "ddpsim collective --explain: " + opt_.op + " on " + std::to_string(opt_.nodes) + " x " +
                                opt_.instance + ", " + std::to_string(topo.gpu_count()) + " ranks, NCCL " +
                                to_string(spec.nccl) + ", profile " + printable(prof_name);
      const std::string report = explain_report(calibrate::explain_sweep(model, *net, op,
                                                                         calibrate::sweep_sizes(lo.n, hi.n, static_cast<std::uint64_t>(opt_.factor)),
                                                                         "--max-bytes"),
                                                 opt_.format, title);
      say_network_error(prof);
      write_output(opt_.output, report);
      return 0;
    }
    CollectiveReport report{opt_.op, opt_.instance, prof_name, opt_.nodes, topo.gpu_count(), !opt_.compare.empty(), {}, {}};
    report.rows = opt_.compare.empty()
                      ? calibrate::predict_sweep(model, *net, op, topo.gpu_count(),
                                                 calibrate::sweep_sizes(lo.n, hi.n, static_cast<std::uint64_t>(opt_.factor)),
                                                 "--max-bytes")
                      : calibrate::compare_log(model, *net, op, topo.gpu_count(), *log, "--compare");
    // The price carries its measured error, on the whole time as a scenario's band is
    // (sim/study/collective_band.hpp: the profile's residual spread or the catalog's, by scope).
    if (const sim::CollectiveBand band = sim::collective_band(prof, opt_.nodes); band.on) {
      report.band.what = band.what;
      for (const calibrate::SweepRow& r : report.rows) {
        const double fast = sim::network_error_factor(0.9, band.sd_at(r.bytes));
        report.band.p10_us.push_back(r.time_us / fast);
        report.band.p90_us.push_back(r.time_us * fast);
      }
    }
    // Said once the rows are priced (an out-of-range sweep errors first), where a row is in the range it concerns.
    const auto mid_size = [](const calibrate::SweepRow& r) { return r.bytes > 8192 && r.bytes <= (std::uint64_t{2} << 20); };
    if (!mid_size_note.empty() && std::any_of(report.rows.begin(), report.rows.end(), mid_size))
      std::fprintf(stderr, "ddpsim: note: %s\n", mid_size_note.c_str());
    say_network_error(prof);
    write_output(opt_.output, collective_report(report, opt_.format));
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  CollectiveOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_collective_command(CLI::App& app) { return std::make_unique<CollectiveCommand>(app); }

}  // namespace ddpsim::app
