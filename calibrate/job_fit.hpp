// `ddpsim calibrate job`: fit named knobs (sim/study/knobs.hpp) to a scenario's observed rows by
// nonlinear least squares through the whole simulator (sim::run_scenario), with Eigen's
// Levenberg-Marquardt (unsupported/Eigen/NonLinearOptimization; docs/calibration.md says why).
//
// Starts: a grid around the scenario's values (x0.1, x1, x10 per knob), the best optimum kept,
// because the step's max(loader, GPU) makes the residuals only piecewise smooth.
// Residual of a row: ln(predicted / observed), so every row counts by its relative error and a
// total time, a step time and a throughput mix. Unknowns: ln(knob value), so values stay
// positive. Jacobian: central differences in ln-space with step 1e-3 (0.1 %): much larger than
// the simulator's picosecond rounding, much smaller than any fitted change.
// Standard errors: cov(ln v) = s^2 (J^T J)^-1 at the optimum, s^2 = RSS / (rows - knobs), or the
// stated measurement noise when rows == knobs (no residual left to estimate it from).
// Refusals (UserError, exit 2): more knobs than rows; a knob with no effect on the rows; a
// Jacobian whose condition number exceeds 1e8 or knobs whose |correlation| exceeds 0.95 (the data
// cannot tell them apart); a fitted value outside the knob's physical range.
#pragma once

#include <Eigen/Dense>
#include <optional>
#include <string>
#include <vector>

#include "sim/study/knobs.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::calibrate {

struct JobFitOptions {
  std::vector<std::string> knobs;
  std::vector<int> fit_on_nodes;  // rows at these node counts are fitted, the rest held back; empty = all
  double noise = 0.02;            // relative sd of one observation, used when rows == knobs
  sim::RunOptions run;
};

struct FittedKnob {
  std::string name;
  double start = 0;
  double value = 0;
  double log_se = 0;  // standard error of ln(value)
  double se() const { return value * log_se; }  // delta method
};

struct RowFit {
  sim::Observation obs;
  bool fitted = false;                 // false: held back
  double uncalibrated = 0;             // prediction before the fit
  double predicted = 0;                // with the fitted knobs
  std::optional<double> loo_predicted; // leave-one-out prediction (fitted rows, when rows > knobs)
  bool loo_undetermined = false;       // without this row the knobs are not identifiable
  double error() const { return predicted / obs.value - 1; }
};

// How fast the fit's error grows beyond its node counts (calibrate/job_extrapolation.hpp).
struct ExtrapolationError {
  double ln_sd_per_doubling = 0;  // 0 when no row could be predicted forward
  int rows = 0;                   // forward predictions it rests on
  int fitted_nodes_max = 0;       // the largest node count the fit was fitted on
  std::string from;               // provenance, e.g. "forward fits: nodes 2 from 1 (compute_scale): -6.8%"
};

// Issue 18 item 4: when the fit flags a knob as implausible (calibrate/plausibility.hpp), that knob
// has absorbed a mechanism the model lacks, and the best plausible fit without it explains the
// fitted rows almost as well but extrapolates differently. Both are kept; the intervals span both
// (sim/study/uncertainty.hpp). Filled by calibrate::plausible_alternative, not by fit_job.
struct PlausibleAlternative {
  std::vector<std::string> without;  // the implausible knobs left out; empty: no alternative
  std::vector<std::string> knobs;    // what the alternative fitted (empty: the scenario as written)
  std::vector<double> values;        // physical units, knob order
  std::string how;                   // one line: what was tried and kept
};

struct JobFit {
  std::vector<FittedKnob> knobs;
  Eigen::MatrixXd cov_log;        // covariance of ln(values), knob order
  Eigen::MatrixXd correlation;
  double condition = 0;           // of the Jacobian (largest / smallest singular value)
  double sigma = 0;               // relative noise per row used for the covariance
  bool sigma_from_residuals = false;
  int dof = 0;                    // fitted rows - knobs
  std::vector<RowFit> rows;       // every observation, in scenario order
  sim::JobContext context;
  int evaluations = 0;            // simulator runs
  ExtrapolationError extrapolation;  // filled by calibrate::extrapolation_error, not by fit_job
  PlausibleAlternative alternative;  // filled by calibrate::plausible_alternative, not by fit_job
};

// Every observed row's prediction (metric as observed) for `spec` as given.
std::vector<double> predict_rows(const sim::ScenarioSpec& spec, const std::vector<sim::Observation>& rows,
                                 const sim::RunOptions& run);

// Throws UserError (exit 2) with the reason for every refusal listed above.
JobFit fit_job(const sim::ScenarioSpec& spec, const JobFitOptions& options);

// `spec` with every knob of `fit` set to its fitted value (or to `values`, ln-space, when given).
sim::ScenarioSpec apply_fit(sim::ScenarioSpec spec, const std::vector<std::string>& names, const std::vector<double>& values);

}  // namespace ddpsim::calibrate
