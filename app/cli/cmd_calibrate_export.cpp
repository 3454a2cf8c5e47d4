// `ddpsim calibrate export PROFILE --nccl-tuner FILE.csv [--nodes 2,4]` (issue 20; calibrate/tuner_export.hpp).
#include "app/cli/cmd_calibrate_export.hpp"

#include <iostream>
#include <set>

#include <CLI/CLI.hpp>

#include "app/input/catalog_loader.hpp"
#include "app/input/profile_io.hpp"
#include "app/output/output.hpp"
#include "app/output/tuner_csv.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace ddpsim::app {

void add_calibrate_export(CLI::App& calibrate, ExportCommandOptions& opt, CLI::App*& sub)
{
  sub = calibrate.add_subcommand("export", "Write a fitted profile's per-size algorithm/protocol choice for another tool");
  sub->add_option("profile", opt.in.profile, "Calibration profile (YAML, from `calibrate fit`)")->required()->check(CLI::ExistingFile);
  sub->add_option("--nccl-tuner", opt.nccl_tuner,
                  "Write NCCL's example tuner plugin CSV (NCCL_TUNER_CONFIG_FILE): rows where the fit beats NCCL's default")
      ->required();
  sub->add_option("--nodes", opt.in.nodes, "Node counts, e.g. 2,4,8 (default: those of the profile's fit data)")
      ->delimiter(',')->check(CLI::Range(1, 65536));
  sub->add_option("--instance", opt.in.instance, "Instance type (default: the profile's)");
  sub->add_option("--gpus-per-node", opt.in.gpus_per_node, "GPUs per node (default: all)")->check(CLI::Range(1, 64));
  opt.in.ops = {"all_reduce"};
  sub->add_option("--op", opt.in.ops, "Collectives, e.g. all_reduce,all_gather")
      ->delimiter(',')->check(CLI::IsMember({"all_reduce", "reduce_scatter", "all_gather", "broadcast"}))->capture_default_str();
  sub->add_option("--min-bytes,-b", opt.min_bytes, "Smallest size")->capture_default_str();
  sub->add_option("--max-bytes,-e", opt.max_bytes, "Largest size")->capture_default_str();
  sub->add_option("--min-gain", opt.in.min_gain, "Write a row only where the fitted choice is this fraction faster")
      ->check(CLI::Range(0.0, 0.99))->capture_default_str();
}

int run_calibrate_export(ExportCommandOptions& opt)
{
  try {
    opt.in.min_bytes = parse_bytes(opt.min_bytes).n;
    opt.in.max_bytes = parse_bytes(opt.max_bytes).n;
  } catch (const ValueError& e) {
    throw UserError(std::string("--min-bytes/--max-bytes: ") + e.what());
  }
  if (opt.in.min_bytes == 0 || opt.in.max_bytes < opt.in.min_bytes || opt.in.max_bytes > (std::uint64_t{1} << 40))
    throw UserError("--min-bytes/--max-bytes: need 0 < min <= max <= 1T");
  const Catalog catalog = builtin_catalog();
  // The profile is for --instance when given (the one check, profile_io.hpp); else its own instance.
  const ResolvedProfile prof = resolve_profile(opt.in.instance.empty() ? "" : catalog.at(opt.in.instance).name, opt.in.profile);
  const InstanceSpec& inst = catalog.at(opt.in.instance.empty() ? prof.profile.instance : opt.in.instance);
  const calibrate::TunerExport e = calibrate::export_nccl_tuner(inst, prof.profile, opt.in);
  write_output(opt.nccl_tuner, tuner_csv(e));
  // Issue 20: say what was written; an empty file (only comments) is a valid answer, said so.
  std::set<int> nodes;
  for (const calibrate::TunerRow& r : e.rows) nodes.insert(r.nodes);
  std::string at;
  for (int n : nodes) at += (at.empty() ? "" : ", ") + std::to_string(n);
  std::cerr << "ddpsim: wrote " << (opt.nccl_tuner == "-" ? std::string("stdout") : opt.nccl_tuner) << ": " << e.rows.size()
            << " row(s)" << (e.rows.empty() ? std::string(": NCCL's default already matches the fit at these node counts "
                                                           "(--nodes asks for others)")
                                            : " for " + at + " node(s)")
            << "\n";
  return 0;
}

}  // namespace ddpsim::app
