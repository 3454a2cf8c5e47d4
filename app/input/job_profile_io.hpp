// Job profiles: what `ddpsim calibrate job` fitted (knob values, their ln-space covariance, the
// context they were fitted in, provenance), as YAML written atomically. A scenario reuses one with
// `calibration: JOB.yaml`: knobs that transfer to its context are applied, the others are named
// in a warning line (calibrate/knobs.hpp says what transfers).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "calibrate/job_fit.hpp"
#include "calibrate/uncertainty.hpp"

namespace ddpsim::app {

inline constexpr const char* kDdpsimVersion = "0.1.0";

struct JobProfile {
  std::string file;
  calibrate::JobContext context;
  std::vector<std::string> knobs;
  std::vector<double> values;  // physical units (knobs.hpp)
  Eigen::MatrixXd cov_log;     // of ln(values)
  double sigma = 0;
};

std::string job_profile_yaml(const calibrate::JobFit& fit, const std::string& scenario);
// Throws UserErrors with file:line:col for a malformed profile.
JobProfile load_job_profile(const std::string& path);

// Applies the knobs that transfer to `spec`; adds them to `u` (normal, with their covariance).
// Returns one warning line per knob that does not transfer.
std::vector<std::string> apply_job_profile(const JobProfile& p, sim::ScenarioSpec& spec, calibrate::Uncertainty& u);

}  // namespace ddpsim::app
