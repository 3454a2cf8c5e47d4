// `ddpsim calibrate fit FILES... --instance NAME --out PROFILE.yaml`: fit a profile to
// nccl-tests logs (text or CSV) and write it atomically, with provenance and per-point residuals.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>

#include "algorithms/registry.hpp"
#include "app/catalog_loader.hpp"
#include "app/commands.hpp"
#include "app/output.hpp"
#include "app/profile_io.hpp"
#include "calibrate/fit.hpp"

namespace ddpsim::app {
namespace {

struct CalibrateOptions {
  std::vector<std::string> files;
  std::string instance;
  std::string out;
  std::string algo = "auto";
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
    fit_->add_option("--out,-o", opt_.out, "Profile to write (YAML)")->required();
    std::vector<std::string> algos{"auto"};
    for (std::string_view n : algo::Registry::instance().names()) algos.emplace_back(n);
    fit_->add_option("--algo", opt_.algo, "Algorithm the logs ran (NCCL_ALGO); auto = NCCL's own choice")
        ->check(CLI::IsMember(algos));
  }

  bool selected() const override { return cmd_->parsed(); }

  int run() override
  {
    const Catalog catalog = builtin_catalog();
    const InstanceSpec* inst = catalog.find(opt_.instance);
    if (!inst) {
      const std::string hint = closest(opt_.instance, catalog.names());
      throw UserError("--instance: unknown instance \"" + opt_.instance + "\"" +
                      (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)"));
    }
    std::vector<calibrate::NcclLog> logs;
    for (const std::string& f : opt_.files) logs.push_back(calibrate::read_nccl_log(f));
    // Everything is parsed and fitted before the output is touched; write_output is atomic.
    const calibrate::Profile prof = calibrate::fit_profile(*inst, logs, opt_.algo);
    write_output(opt_.out, profile_yaml(prof));
    double worst = 0;
    for (const auto& r : prof.residuals) worst = std::max(worst, std::abs(r.error()));
    std::cerr << "ddpsim: fitted " << prof.residuals.size() << " points from " << logs.size() << " file(s); largest |error| "
              << std::round(worst * 1000) / 10.0 << "%; wrote " << opt_.out << "\n";
    return 0;
  }

 private:
  CLI::App* cmd_ = nullptr;
  CLI::App* fit_ = nullptr;
  CalibrateOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_calibrate_command(CLI::App& app) { return std::make_unique<CalibrateCommand>(app); }

}  // namespace ddpsim::app
