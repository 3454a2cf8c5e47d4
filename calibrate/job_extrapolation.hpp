// Issue 18 item 4: how fast a job fit's error grows beyond the node counts it was fitted on.
//
// A leave-one-out error measures the model at the fitted scale; predictions at 4-32 nodes from a
// fit on 1-2 nodes err by more, and by more the further they reach (docs/validation.md "How often
// held-back rows fall inside p10-p90"). This is evaluation on a rolling forecasting origin
// (forward chaining; Hyndman & Athanasopoulos, "Forecasting: Principles and Practice", 3rd ed.,
// section 5.10): each fitted row above the smallest node count is predicted by a fit on the
// fitted rows with fewer nodes only, with as many of the fit's knobs as those rows determine
// (a network knob is not determined by one-node rows: it keeps the scenario's value). Its error
// e (ln predicted/observed), over d = log2(nodes / largest node count fitted) doublings, gives
// s^2 = mean(e^2 / d). The intervals (sim/study/uncertainty.hpp) widen by it beyond the fitted
// range as a drift, sd s d after d doublings (docs/validation.md section D: a random walk, s sqrt(d),
// under-covered the held-back rows). Forward fits use fewer knobs than the real fit, so s is an upper estimate.
#pragma once

#include <string>

#include "calibrate/job_fit.hpp"

namespace ddpsim::calibrate {

// The result (struct in job_fit.hpp, kept in JobFit::extrapolation by the caller).
// Refits `spec` for each forward step with the options of `fit` (knobs, noise, run); never throws
// for a forward fit the rows cannot determine (that step is skipped).
ExtrapolationError extrapolation_error(const sim::ScenarioSpec& spec, const JobFitOptions& options, const JobFit& fit);

// The model error a plausibility warning implies (struct PlausibleAlternative in job_fit.hpp): when
// knob_warning (calibrate/plausibility.hpp) flags a fitted knob, refit on the same rows with the
// other knobs, as many as the rows determine with plausible values (largest subset first); with
// none left, the alternative is the scenario as written. Empty when no knob is flagged.
PlausibleAlternative plausible_alternative(const sim::ScenarioSpec& spec, const JobFitOptions& options, const JobFit& fit);

}  // namespace ddpsim::calibrate
