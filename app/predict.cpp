#include "app/predict.hpp"

#include <cmath>
#include <cstdio>

#include "app/input/job_profile_io.hpp"
#include "calibrate/knobs.hpp"
#include "calibrate/uncertainty.hpp"

namespace ddpsim::app {
namespace {

bool has_knob(const calibrate::Uncertainty& u, const std::string& knob)
{
  for (const calibrate::Dimension& d : u.dims)
    if (d.knob == knob) return true;
  return false;
}

// The spread of a profile's multi-node residuals, sd of ln(predicted / measured), as a normal
// perturbation of the network efficiency. Nothing when fewer than two multi-node points.
void add_profile_spread(const sim::Profile& prof, calibrate::Uncertainty& u, std::vector<std::string>& notes)
{
  if (has_knob(u, "network_efficiency")) return;
  std::vector<double> ln;
  for (const sim::Residual& r : prof.residuals)
    if (r.nodes > 1 && r.measured_us > 0 && r.predicted_us > 0) ln.push_back(std::log(r.predicted_us / r.measured_us));
  if (ln.size() < 2) return;
  double mean = 0, var = 0;
  for (double v : ln) mean += v / static_cast<double>(ln.size());
  for (double v : ln) var += (v - mean) * (v - mean) / static_cast<double>(ln.size() - 1);
  calibrate::Dimension d;
  d.knob = "network_efficiency";
  d.source = "profile residuals";
  d.center = std::log(prof.network.efficiency);
  u.dims.push_back(d);
  const Eigen::Index n = u.cov.rows();
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(n + 1, n + 1);
  if (n > 0) cov.topLeftCorner(n, n) = u.cov;
  cov(n, n) = var;
  u.cov = cov;
  char buf[160];
  std::snprintf(buf, sizeof buf, "interval: network efficiency x exp(N(0, %.3f)) from %zu profile residuals", std::sqrt(var),
                ln.size());
  notes.emplace_back(buf);
}

// Issue 20: the job profile's fitted and held-back rows, marked on the report's rows.
void mark_fit_roles(const JobProfile& p, sim::ScenarioReport& report)
{
  for (sim::ConfigResult& r : report.results)
    for (const JobProfile::Role& role : p.roles)
      if (role.nodes == r.nodes && role.framework == r.framework && r.compiler.empty()) r.fit_role = role.role;
}

}  // namespace

sim::ScenarioReport predict(const sim::ScenarioSpec& loaded, const Catalog& catalog, const sim::RunOptions& run,
                            int samples)
{
  sim::ScenarioSpec spec = loaded;
  calibrate::Uncertainty u;
  std::vector<std::string> notes;
  if (!loaded.calibration.empty()) notes = apply_job_profile(load_job_profile(loaded.calibration), spec, u);
  add_profile_spread(loaded.communication.profile, u, notes);  // the catalog-only profile has no residuals: adds nothing
  std::string assumed;
  for (const AssumedRange& a : catalog.assumed) {
    bool listed = false;
    for (const std::string& i : a.instances) listed = listed || catalog.find(i) == catalog.find(loaded.cluster.instance.name);
    if (!listed || has_knob(u, a.knob)) continue;
    u.dims.push_back(calibrate::assumed_range(a.knob, calibrate::start_value(a.knob, loaded), a.low, a.high));
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s x%g-%g", a.field.c_str(), a.low, a.high);
    assumed += (assumed.empty() ? "" : ", ") + std::string(buf);
  }
  sim::ScenarioReport report = sim::run_scenario(spec, run);
  if (!loaded.calibration.empty()) {
    sim::RunOptions quiet = run;
    quiet.timeline = nullptr;
    quiet.progress = nullptr;
    const sim::ScenarioReport before = sim::run_scenario(loaded, quiet);
    for (std::size_t i = 0; i < report.results.size() && i < before.results.size(); ++i) {
      report.results[i].uncalibrated_step_s = before.results[i].step_time_s;
      report.results[i].uncalibrated_total_s = before.results[i].total_time_s;
    }
  }
  if (!loaded.calibration.empty()) mark_fit_roles(load_job_profile(loaded.calibration), report);
  if (samples == kDefaultSamples) samples = calibrate::uncertainty_matters(loaded, u) ? kAutoSamples : 0;
  if (samples >= 2 && !u.empty()) {
    calibrate::add_intervals(loaded, report, u, run, samples);
    if (!assumed.empty()) notes.push_back("interval: catalog [assume] ranges " + assumed);
    notes.push_back("intervals (p10-p90) from " + std::to_string(samples) +
                    " Latin-hypercube samples of the uncertain inputs (--samples)");
  }
  report.notes = notes;
  return report;
}

}  // namespace ddpsim::app
