// Prediction intervals: rerun the simulator with the uncertain inputs perturbed and report the
// 10th and 90th percentiles of every time, throughput, cost and speedup.
//
// Inputs (each one dimension, applied through calibrate/knobs.hpp):
//   - a job fit's knobs: ln(value) ~ Normal(fitted, cov) (correlated, through the Cholesky factor);
//   - a profile's residual spread: network_efficiency x exp(Normal(0, sd of ln residuals));
//   - a catalog [assume] value with a stated range: ln(value) uniform over [low, high].
// Sampling: a Latin hypercube of N points (every dimension's (0,1) range cut in N strata, one
// point per stratum, strata paired by seeded permutations; McKay, Beckman & Conover 1979), from
// a SplitMix64 stream so that the same seed gives the same samples on every platform. Normal
// dimensions map through Boost.Math's normal quantile.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::calibrate {

struct Dimension {
  std::string knob;      // calibrate/knobs.hpp name
  std::string source;    // e.g. "fit", "profile residuals", "catalog [assume]"
  bool normal = true;    // normal in ln-space (else ln-uniform)
  double center = 0;     // ln(value): the mean (normal) ...
  double low = 0, high = 0;  // ... or the ln range (uniform)
};

struct Uncertainty {
  std::vector<Dimension> dims;
  Eigen::MatrixXd cov;   // covariance of the normal dimensions' ln values, in their order
  bool empty() const { return dims.empty(); }
};

// ln-uniform dimension over value x [low_factor, high_factor].
Dimension assumed_range(const std::string& knob, double value, double low_factor, double high_factor);

// N points in [0,1)^d, deterministic in `seed`.
std::vector<std::vector<double>> latin_hypercube(std::size_t n, std::size_t d, std::uint64_t seed);

// Reruns `base` (as loaded, before any fit) with each sample's values and sets the bands of every
// result of `report` (matched by position: same configurations in the same order). Samples run
// on the analytical engine in this process whatever `run` says (the flow engine costs seconds per
// run); a band is the samples' p10/p90 relative to the analytical run at the central values,
// times the reported value, so a flow-engine report gets the analytical engine's relative spread.
void add_intervals(const sim::ScenarioSpec& base, sim::ScenarioReport& report, const Uncertainty& u,
                   const sim::RunOptions& run, int samples, std::uint64_t seed = 1);

}  // namespace ddpsim::calibrate
