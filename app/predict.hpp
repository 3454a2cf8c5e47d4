// A scenario's prediction as `ddpsim scenario` reports it: the calibration (`calibration:`)
// applied where it transfers, the uncalibrated prediction beside it, and [p10, p90] bands from
// everything uncertain (the fit's covariance, the communication profile's residual spread, the
// catalog's [assume] ranges) by rerunning the simulator (calibrate/uncertainty.hpp).
#pragma once

#include "app/input/catalog_loader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

inline constexpr int kDefaultSamples = 16;

// `samples` < 2: no bands. The timeline in `run` receives the calibrated run's last configuration.
sim::ScenarioReport predict(const sim::ScenarioSpec& loaded, const Catalog& catalog, const sim::RunOptions& run,
                            int samples);

}  // namespace ddpsim::app
