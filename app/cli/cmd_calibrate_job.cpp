// `ddpsim calibrate job SCENARIO --fit KNOB... [--fit-on nodes=1,2] --out JOB.yaml`: fit knobs to
// the scenario's observed rows through the simulator (calibrate/job_fit.hpp), print the values with
// their standard errors, every row's residual or held-back error and the leave-one-out errors, and
// write the job profile atomically.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/input/catalog_loader.hpp"
#include "app/cli/cli_names.hpp"
#include "app/cli/cmd_calibrate_job.hpp"
#include "app/input/job_profile_io.hpp"
#include "app/output/output.hpp"
#include "app/input/scenario_loader.hpp"
#include "calibrate/job_extrapolation.hpp"
#include "calibrate/plausibility.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

std::string value_text(double v, sim::Metric m)
{
  if (m == sim::Metric::samples_per_s) return fmt("%.1f/s", v);
  if (v >= 60) return fmt("%.2f min", v / 60);
  if (v >= 1) return fmt("%.3f s", v);
  return fmt("%.3f ms", v * 1e3);
}

std::string knob_text(double v, const std::string& unit)
{
  if (unit == "s") return v >= 1e-3 ? fmt("%.4g ms", v * 1e3) : fmt("%.4g us", v * 1e6);
  return fmt("%.4g", v);
}

std::vector<int> parse_fit_on(const std::string& text)
{
  if (text.empty()) return {};
  if (text.rfind("nodes=", 0) != 0) throw UserError("--fit-on: expected nodes=N[,N...], got \"" + text + "\"");
  std::vector<int> out;
  std::string rest = text.substr(6);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string one = rest.substr(0, comma);
    try {
      std::size_t used = 0;
      const int n = std::stoi(one, &used);
      if (used != one.size() || n < 1) throw std::invalid_argument(one);
      out.push_back(n);
    } catch (const std::exception&) {
      throw UserError("--fit-on: \"" + one + "\" is not a node count");
    }
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  return out;
}

}  // namespace

void add_calibrate_job(CLI::App& calibrate, JobCommandOptions& opt, CLI::App*& sub)
{
  sub = calibrate.add_subcommand("job", "Fit knobs to a scenario's observed rows (observed:) and write a job profile");
  sub->add_option("scenario", opt.scenario, "Scenario YAML with observed rows")->required();
  std::string names;
  for (const sim::Knob& k : sim::knobs()) names += "\n  " + k.name + ": " + k.meaning;
  sub->add_option("--fit", opt.knobs, "Knobs to fit:" + names)->required();
  sub->add_option("--fit-on", opt.fit_on, "Rows to fit, e.g. nodes=1,2 (default: all; the others are held back)");
  sub->add_option("--noise", opt.noise, "Relative sd of one observation, used when rows == knobs")
      ->check(CLI::Range(1e-4, 1.0));
  sub->add_option("-o,--output", opt.out, "Job profile to write (YAML) (required)");
  add_hidden_alias(sub, "--out", opt.out);
}

int run_calibrate_job(const JobCommandOptions& opt)
{
  require_option(opt.out, "--output");
  const Catalog catalog = builtin_catalog();
  const sim::ScenarioSpec spec = load_scenario(opt.scenario, catalog);
  calibrate::JobFitOptions fo;
  fo.knobs = opt.knobs;
  fo.fit_on_nodes = parse_fit_on(opt.fit_on);
  fo.noise = opt.noise;
  calibrate::JobFit fit = calibrate::fit_job(spec, fo);
  fit.extrapolation = calibrate::extrapolation_error(spec, fo, fit);
  fit.alternative = calibrate::plausible_alternative(spec, fo, fit);
  std::string out = "calibrate job " + spec.name + ": " + std::to_string(fit.rows.size()) + " observed row(s), " +
                    std::to_string(fit.dof + static_cast<int>(fit.knobs.size())) + " fitted, " +
                    std::to_string(fit.evaluations) + " simulator runs\n\n";
  out += "knob                     start          fitted         std. error\n";
  for (const calibrate::FittedKnob& k : fit.knobs) {
    const std::string unit = sim::knob(k.name).unit;
    char line[200];
    std::snprintf(line, sizeof line, "%-22s %-14s %-14s +/- %s (%.1f%%)\n", k.name.c_str(), knob_text(k.start, unit).c_str(),
                  knob_text(k.value, unit).c_str(), knob_text(k.se(), unit).c_str(), k.log_se * 100);
    out += line;
  }
  out += "\nstandard errors from " +
         (fit.sigma_from_residuals ? "the residuals (sigma " + fmt("%.2f%%", fit.sigma * 100) + " per row, " +
                                         std::to_string(fit.dof) + " degree(s) of freedom)"
                                   : "the stated noise " + fmt("%.1f%%", fit.sigma * 100) +
                                         " per row (as many rows as knobs: the fit is exact, nothing is left to estimate it from)") +
         "; Jacobian condition number " + fmt("%.3g", fit.condition) + "\n";
  for (Eigen::Index a = 0; a < fit.correlation.rows(); ++a)
    for (Eigen::Index b = a + 1; b < fit.correlation.cols(); ++b)
      out += "correlation " + fit.knobs[static_cast<std::size_t>(a)].name + " / " + fit.knobs[static_cast<std::size_t>(b)].name +
             ": " + fmt("%+.2f", fit.correlation(a, b)) + "\n";
  out += "\nrow                                 nodes  gpus  framework     metric          observed     uncalibrated  "
         "fitted       error    leave-one-out\n";
  for (const calibrate::RowFit& r : fit.rows) {
    const std::string where = r.obs.where.size() > 34 ? "..." + r.obs.where.substr(r.obs.where.size() - 31) : r.obs.where;
    char line[400];
    std::snprintf(line, sizeof line, "%-34s  %5d  %4d  %-12s  %-14s  %-11s  %-12s  %-11s  %+6.1f%%  %s\n", where.c_str(),
                  r.obs.nodes, r.obs.nodes * r.obs.gpus_per_node, std::string(to_string(r.obs.framework)).c_str(),
                  (std::string(to_string(r.obs.metric)) + (r.fitted ? "" : " held")).c_str(),
                  value_text(r.obs.value, r.obs.metric).c_str(), value_text(r.uncalibrated, r.obs.metric).c_str(),
                  value_text(r.predicted, r.obs.metric).c_str(), r.error() * 100,
                  r.loo_predicted ? fmt("%+.1f%%", (*r.loo_predicted / r.obs.value - 1) * 100).c_str()
                                  : (!r.fitted ? "-" : r.loo_undetermined ? "n/a (knobs undetermined without it)" : "n/a (rows <= knobs)"));
    out += line;
  }
  out += "\nerror = fitted prediction vs observed: a residual on fitted rows, a prediction error on held-back ones;\n"
         "leave-one-out = the error on a fitted row when the fit leaves it out.\n";
  write_output(opt.out, job_profile_yaml(fit, opt.scenario));
  std::cout << out << "wrote " << opt.out << "\n";
  for (const std::string& w : calibrate::job_warnings(fit)) std::cerr << "ddpsim: warning: " << w << "\n";
  int loo_rows = 0;
  const double model_error = calibrate::loo_model_error(fit, loo_rows);
  std::cout << (loo_rows > 0 ? "model error for the intervals (leave-one-out, " + std::to_string(loo_rows) + " row(s)): " +
                                   fmt("%.2f%%", model_error * 100) + " sd in ln\n"
                             : std::string("model error: not measured (no leave-one-out prediction: rows <= knobs)\n"));
  const calibrate::ExtrapolationError& x = fit.extrapolation;
  std::cout << (x.rows > 0 ? "model error beyond " + std::to_string(x.fitted_nodes_max) + " node(s): " +
                                 fmt("%.2f%%", x.ln_sd_per_doubling * 100) + " sd in ln per doubling of nodes (" + x.from + ")\n"
                           : std::string("model error beyond the fitted nodes: not measured (no fitted row above the smallest node count)\n"));
  if (!fit.alternative.without.empty())
    std::cout << "implausible knob(s): the intervals also span " << fit.alternative.how << "\n";
  return 0;
}

}  // namespace ddpsim::app
