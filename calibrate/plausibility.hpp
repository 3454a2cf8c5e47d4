// Fits that refuse the impossible (issue 18 item 4): every fitted parameter has a physical range
// (where values are impossible, refused elsewhere: fit.hpp's implausible(), knobs.hpp's
// lower/upper) and, inside it, a plausible range. A fit that lands on a physical bound or
// outside the plausible range is written, but with a warning naming the mechanism the model is
// probably missing: the knob absorbed it. The warnings are printed and recorded in the profile
// (`warnings:` in the profile and job-profile YAML).
//
// Plausible ranges (assumptions, stated here and in docs/calibration.md; never fitted to a row):
//   efficiency (profile, per scope) and network_efficiency (job): (0, 1] physical, relative to the
//     catalog's achievable rate; plausible >= 0.5 (below it the link would run at under half of
//     what NCCL reaches on it: NCCL assumes ~76 % of PCIe line rate, topo.cc; ~80 % of NVLink,
//     NVIDIA/nccl-tests#149 and #212).
//   alpha (profile): plausible >= 0: a negative alpha puts the latency below NCCL's own table,
//     the floor the catalog and tuning.cc give.
//   gamma (profile): >= 0 physical (a pipeline fill is never negative); the fit drops it when the
//     rows want it negative, and a gamma of 0 is then on its bound (warned).
//   network_latency, nvlink_latency, pcie_latency (job): plausible >= the catalog's value (the floor).
//   compute_efficiency (job): (0, 1] physical; plausible 0.05..0.9 of peak FLOP/s.
//   compute_scale, model_scale (job): plausible 0.2..5 (a factor of 5 is not a calibration).
//   step_overhead (job): plausible <= 1 s per step; loader_cpu (job): <= 1 s per sample.
#pragma once

#include <string>
#include <vector>

#include "calibrate/job_fit.hpp"
#include "sim/network/profile.hpp"

namespace ddpsim::calibrate {

inline constexpr double kPlausibleEfficiency = 0.5;
// A value within this relative distance of a physical bound "lands on" it.
inline constexpr double kOnBound = 0.01;

// One warning per implausible profile parameter, e.g. "multi-node efficiency 1.10 > 1 ...",
// naming the algorithms and protocols the fit assumed in that scope (from the residuals).
// `host_staged`: the instance's NIC has no GPUDirect RDMA, so the multi-node price stages through
// host memory, and an efficiency above 1 there names the staging's spread as a candidate too.
std::vector<std::string> profile_warnings(const sim::Profile& profile, bool host_staged = false);

// One warning per implausible fitted knob; a knob's start (the scenario's or catalog's value) is
// the floor of the latency knobs.
std::vector<std::string> job_warnings(const JobFit& fit);

// The model error a job fit's leave-one-out predictions show: sqrt(mean ln(loo / observed)^2)
// over the fitted rows that have one; `rows` says how many (0: none, the result is 0).
double loo_model_error(const JobFit& fit, int& rows);

// The warning for one knob value, or "" (exposed for tests).
std::string knob_warning(const std::string& knob, double value, double start);

}  // namespace ddpsim::calibrate
