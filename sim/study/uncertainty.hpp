// Prediction intervals: rerun the simulator with the uncertain inputs perturbed and report the
// 10th and 90th percentiles of every time, throughput, cost and speedup.
//
// Inputs (each one dimension, applied through sim/study/knobs.hpp):
//   - a job fit's knobs: ln(value) ~ Normal(fitted, cov) (correlated, through the Cholesky factor);
//   - a profile's residual spread: network_efficiency x exp(Normal(0, sd of ln residuals));
//   - a catalog [assume] value with a stated range: ln(value) uniform over [low, high];
//   - a measured one-sided model error: ln(value) = center + |Normal(0, sd)| (Dimension::half).
// Sampling: a Latin hypercube of N points (every dimension's (0,1) range cut in N strata, one
// point per stratum, strata paired by seeded permutations; McKay, Beckman & Conover 1979), from
// a SplitMix64 stream so that the same seed gives the same samples on every platform. Normal
// dimensions map through Boost.Math's normal quantile.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

struct Dimension {
  std::string knob;      // sim/study/knobs.hpp name
  std::string source;    // e.g. "fit", "profile residuals", "catalog [assume]"
  bool normal = true;    // normal in ln-space (else ln-uniform)
  bool screened = false; // a normal dimension the screen below may rule out (tried at +-2 sd)
  bool half = false;     // a normal dimension folded at its centre: ln(value) = center + |N(0, var)|,
                         // for an effect with a known sign (a loss) and a measured size
  double center = 0;     // ln(value): the mean (normal) ...
  double low = 0, high = 0;  // ... or the ln range (uniform)
  // A normal dimension's ln(value) at deviation `dev` from its centre (folded when `half`).
  double ln_at(double dev) const { return center + (half ? std::abs(dev) : dev); }
};

struct Uncertainty {
  std::vector<Dimension> dims;
  Eigen::MatrixXd cov;   // covariance of the normal dimensions' ln values, in their order
  // The model's own error (issue 18 item 4): every sample's times and cost x exp(N(0, sd)),
  // throughput / the same; sd from a job fit's leave-one-out errors (0: none known).
  double model_error_ln_sd = 0;
  // ... growing beyond the fitted node counts: a configuration on N nodes gets the sd
  // sqrt(model_error_ln_sd^2 + (extrapolation_ln_sd d)^2), d = max(0, log2(N / extrapolation_beyond_nodes)),
  // a drift (docs/validation.md section D says why not a random walk)
  // (calibrate/job_extrapolation.hpp); one standard normal per sample drives every configuration.
  double extrapolation_ln_sd = 0;
  int extrapolation_beyond_nodes = 0;
  double model_error_sd_at(int nodes) const;
  // Structural uncertainty (issue 18 item 4): a job fit whose knob is implausible has absorbed a
  // mechanism the model lacks; its best plausible alternative (JobProfile::alternative_*) fits the
  // same rows and extrapolates differently. It runs once, at the central values with `replaces`
  // (the fit's knobs) back at the scenario's values and `alternative` applied, and every band
  // becomes [min(p10, a), max(p90, a)], a = the alternative's value: the prediction spans both
  // models (Draper 1995, "Assessment and propagation of model uncertainty", J. R. Stat. Soc. B 57).
  // Empty `replaces`: none.
  std::vector<std::string> replaces;
  std::vector<std::pair<std::string, double>> alternative;
  bool has_model_error() const { return model_error_ln_sd > 0 || (extrapolation_ln_sd > 0 && extrapolation_beyond_nodes > 0); }
  bool empty() const { return dims.empty() && !has_model_error(); }
};

// ln-uniform dimension over value x [low_factor, high_factor].
Dimension assumed_range(const std::string& knob, double value, double low_factor, double high_factor);

// Appends a normal dimension of ln-variance `var` to `u`, independent of the others.
void push_normal(Uncertainty& u, const Dimension& d, double var);

// N points in [0,1)^d, deterministic in `seed`.
std::vector<std::vector<double>> latin_hypercube(std::size_t n, std::size_t d, std::uint64_t seed);

// Issue 20: whether the uncertain inputs can move any result, so that `--samples` need not cost 16
// reruns when they cannot. A fit's or a profile's (normal) dimension always counts; ln-uniform
// ([assume]) ranges are screened by two analytical runs of every configuration, all low and all
// high (a screened normal dimension at -2 and +2 sd), against the central run: unchanged step
// time, throughput and total time (to 1e-9) on
// every row means a zero-width interval, so no sampling. (Corners suffice where each input moves
// a result one way; the screen does not look for effects that cancel between the corners.)
// `shapes` (issue 21): NCCL schedules shared with the other runs of this scenario, or null.
bool uncertainty_matters(const sim::ScenarioSpec& base, const Uncertainty& u,
                         std::shared_ptr<ShapeCache> shapes = nullptr);

// Reruns `base` (as loaded, before any fit) with each sample's values and sets the bands of every
// result of `report` (matched by position: same configurations in the same order). Samples run
// on the analytical engine in this process whatever `run` says (the flow engine costs seconds per
// run); a band is the samples' p10/p90 relative to the analytical run at the central values,
// times the reported value, so a flow-engine report gets the analytical engine's relative spread.
// The samples share `run.shapes` (issue 21), if any.
void add_intervals(const ScenarioSpec& base, ScenarioReport& report, const Uncertainty& u,
                   const RunOptions& run, int samples, std::uint64_t seed = 1);

}  // namespace ddpsim::sim
