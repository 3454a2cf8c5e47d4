// Job profiles: what `ddpsim calibrate job` fitted (knob values, their ln-space covariance, the
// context they were fitted in, provenance), as YAML written atomically. A scenario reuses one with
// `calibration: JOB.yaml`: knobs that transfer to its context are applied, the others are named
// in a warning line (sim/study/knobs.hpp says what transfers; sim/study/twin.hpp applies it).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "calibrate/job_fit.hpp"
#include "sim/study/knobs.hpp"

namespace ddpsim::app {

inline constexpr const char* kDdpsimVersion = "0.1.0";

using JobProfile = sim::JobProfile;

std::string job_profile_yaml(const calibrate::JobFit& fit, const std::string& scenario);
// Throws UserErrors with file:line:col for a malformed profile.
JobProfile load_job_profile(const std::string& path);
// The same from text (`name` locates the errors); fuzzed by fuzz/fuzz_job_profile.cpp.
JobProfile parse_job_profile(const std::string& name, const std::string& text);

}  // namespace ddpsim::app
