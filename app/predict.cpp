#include "app/predict.hpp"

#include <cmath>
#include <cstdio>

#include "app/input/job_profile_io.hpp"
#include "calibrate/knobs.hpp"
#include "calibrate/uncertainty.hpp"
#include "sim/step/traced.hpp"

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

// Issue 19: a traced model's notes, and on another GPU than the trace's the scaling and its interval.
void add_traced(const sim::ScenarioSpec& spec, calibrate::Uncertainty& u, std::vector<std::string>& notes)
{
  const sim::TracedModel* t = spec.model.traced.get();
  if (!t) return;
  notes.insert(notes.end(), t->notes.begin(), t->notes.end());
  const sim::GpuRatio g = sim::gpu_ratio(*t, spec.cluster.instance.gpu, spec.training.precision);
  if (!g.scaled) return;
  const double f = sim::traced_compute_factor(*t, g.point);
  const double lo = sim::traced_compute_factor(*t, g.low) / f, hi = sim::traced_compute_factor(*t, g.high) / f;
  if (!has_knob(u, "compute_scale")) u.dims.push_back(calibrate::assumed_range("compute_scale", 1.0, lo, hi));
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "model.trace: compute scaled from %s to %s: kernel time x %.3f (peak FLOP/s ratio %.3f, HBM ratio %.3f; "
                "host time kept); the interval spans both ratios (compute x %.3f-%.3f), wider than a same-GPU prediction",
                t->gpu->name.c_str(), spec.cluster.instance.gpu.name.c_str(), g.point, g.flops, g.hbm, lo, hi);
  notes.emplace_back(buf);
}

}  // namespace

sim::ScenarioReport predict(const sim::ScenarioSpec& loaded, const Catalog& catalog, const sim::RunOptions& run,
                            int samples)
{
  sim::ScenarioSpec spec = loaded;
  calibrate::Uncertainty u;
  std::vector<std::string> notes;
  if (!loaded.calibration.empty()) notes = apply_job_profile(load_job_profile(loaded.calibration), spec, u);
  add_traced(loaded, u, notes);  // issue 19
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
