// `ddpsim expect` (issue 20): the nccl-tests bus bandwidth to expect on N nodes of an instance, as
// p10/p50/p90 per size with provenance; `--check LOG` grades a fresh log size by size (pass, slow,
// fast) and exits 1 when any size is slow, for cluster acceptance tests (calibrate/expect.hpp).
#include <CLI/CLI.hpp>

#include "app/input/catalog_loader.hpp"
#include "app/cli/commands.hpp"
#include "app/input/profile_io.hpp"
#include "app/output/expect_report.hpp"
#include "app/output/output.hpp"
#include "app/input/yaml_reader.hpp"
#include "calibrate/collective_sweep.hpp"
#include "calibrate/nccl_log.hpp"

namespace ddpsim::app {
namespace {

struct ExpectOptions {
  std::string instance;
  std::vector<int> nodes{2};
  int gpus_per_node = 0;
  std::string op = "all_reduce";
  std::string profile;
  std::string min_bytes = "8", max_bytes = "8G";
  int factor = 2;
  std::string check;
  std::string format = "table";
  std::string output;
};

Bytes size_of(const std::string& flag, const std::string& text)
{
  try {
    return parse_bytes(text);
  } catch (const ValueError& e) {
    throw UserError(flag + ": " + e.what());
  }
}

class ExpectCommand final : public Command {
 public:
  explicit ExpectCommand(CLI::App& app)
  {
    cmd_ = app.add_subcommand("expect", "Expected nccl-tests bus bandwidth (p10/p50/p90 per size), or grade a log (--check)");
    cmd_->add_option("--instance", opt_.instance, "Instance type (see `ddpsim catalog`)")->required();
    cmd_->add_option("--nodes", opt_.nodes, "Node counts, e.g. 2,4,8 (with --check: from the log)")
        ->delimiter(',')->check(CLI::Range(1, 65536))->capture_default_str();
    cmd_->add_option("--gpus-per-node", opt_.gpus_per_node, "GPUs per node (default: all)")->check(CLI::Range(1, 64));
    cmd_->add_option("--op", opt_.op, "Collective")
        ->check(CLI::IsMember({"all_reduce", "reduce_scatter", "all_gather", "broadcast"}))->capture_default_str();
    cmd_->add_option("--profile", opt_.profile,
                     "Calibration profile (YAML), or none for the catalog alone (default: the shipped one for the instance)");
    cmd_->add_option("--min-bytes,-b", opt_.min_bytes, "Smallest size")->capture_default_str();
    cmd_->add_option("--max-bytes,-e", opt_.max_bytes, "Largest size")->capture_default_str();
    cmd_->add_option("--factor,-f", opt_.factor, "Size multiplier between rows")->check(CLI::Range(2, 1024))->capture_default_str();
    cmd_->add_option("--check", opt_.check,
                     "A fresh nccl-tests log (text or CSV): one pass/slow/fast line per size; exit 1 when any is slow")
        ->check(CLI::ExistingFile);
    cmd_->add_option("--format", opt_.format, "Output format")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
    cmd_->add_option("-o,--output", opt_.output, "Write to this file (atomically) (default: stdout)");
  }

  bool selected() const override { return cmd_->parsed(); }

  // The instance and the profile by the one default rule (profile_io.hpp).
  static calibrate::ExpectBasis basis(const Catalog& catalog, const std::string& instance, const std::string& profile)
  {
    const InstanceSpec& inst = catalog.at(instance);
    ResolvedProfile r = resolve_profile(inst.name, profile);
    return {inst, std::move(r.profile), r.file.empty() ? "" : r.shipped ? "builtin " + r.file : r.file};
  }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const calibrate::ExpectBasis b = basis(catalog, opt_.instance, opt_.profile);
    calibrate::ExpectInput in{opt_.instance, opt_.nodes, opt_.gpus_per_node, opt_.op, {}};
    if (!opt_.check.empty()) {
      const calibrate::NcclLog log = calibrate::parse_nccl_log(opt_.check, read_text_file(opt_.check));
      calibrate::Expectation e;
      const std::vector<calibrate::CheckRow> rows = calibrate::check_log(b, in, log, e);
      write_output(opt_.output, opt_.format == "json" ? expect_json(e, &rows) : check_table(e, rows, opt_.check));
      for (const calibrate::CheckRow& r : rows)
        if (r.verdict == "slow") return 1;
      return 0;
    }
    const Bytes lo = size_of("--min-bytes", opt_.min_bytes), hi = size_of("--max-bytes", opt_.max_bytes);
    if (lo.n == 0 || hi < lo) throw UserError("--min-bytes/--max-bytes: need 0 < min <= max");
    in.sizes = calibrate::sweep_sizes(lo.n, hi.n, static_cast<std::uint64_t>(opt_.factor));
    const calibrate::Expectation e = calibrate::expect_busbw(b, in);
    write_output(opt_.output, opt_.format == "json" ? expect_json(e, nullptr) : expect_table(e));
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  ExpectOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_expect_command(CLI::App& app) { return std::make_unique<ExpectCommand>(app); }

}  // namespace ddpsim::app
