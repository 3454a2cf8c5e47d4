// The twin loop: a scenario's prediction as every study reports it. The job profile of
// `calibration:` (sim::JobProfile in sim/study/knobs.hpp, loaded by app/input) is applied where it transfers,
// the uncalibrated prediction is kept beside it, and [p10, p90] bands come from everything
// uncertain (the fit's covariance, the communication profile's residual spread, the catalog's
// [assume] ranges) by rerunning the simulator (sim/study/uncertainty.hpp). `ddpsim scenario`,
// `ddpsim plan` and shared fabrics all run through here, so a calibration is never skipped.
#pragma once

#include <string>
#include <vector>

#include "sim/study/knobs.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/uncertainty.hpp"

namespace ddpsim::sim {

// Issue 20: --samples' default is "what the inputs need": kAutoSamples samples when an uncertain
// input can move a result (uncertainty_matters), else none.
inline constexpr int kDefaultSamples = -1;  // auto
inline constexpr int kAutoSamples = 16;

// Applies the knobs of `p` that transfer to `spec`; adds them to `u` (normal, with their
// covariance). Returns one warning line per knob that does not transfer, and what was applied.
std::vector<std::string> apply_job_profile(const JobProfile& p, ScenarioSpec& spec, Uncertainty& u);

// `spec` with its job profile's transferable knobs applied (a copy of `spec` when it has none).
// Appends to `notes` one warning per knob that does not transfer and what was applied.
ScenarioSpec calibrated(const ScenarioSpec& spec, std::vector<std::string>* notes = nullptr);

// The prediction: calibrated, with uncalibrated step and total beside each row when a
// calibration is set, and bands from `samples` >= 2 Latin-hypercube samples (< 2: none; kDefaultSamples: auto). The
// timeline in `run` receives the calibrated run's last configuration.
ScenarioReport predict(const ScenarioSpec& loaded, const RunOptions& run = {}, int samples = 0);

// The knobs of `spec`'s job profile that transfer to it, in the profile's order (empty without one).
std::vector<std::string> applied_knobs(const ScenarioSpec& spec);

// The job profile's file name (reports stay the same wherever the repository is checked out);
// "" without a calibration.
std::string calibration_name(const ScenarioSpec& spec);

}  // namespace ddpsim::sim
