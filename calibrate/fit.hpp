// Fitting a profile to nccl-tests logs (Eigen least squares). For every out-of-place row the
// collective model (sim/network/collective_model.hpp) gives NCCL's choice of algorithm and protocol and its
// terms L and B; the fit solves, per scope (one node / several nodes),
//   t_measured - L = alpha + (1/efficiency) x B + gamma x sqrt(S/MiB)   (sim::profile_time_us)
// weighted by 1/t_measured, so it minimises relative error: small and large sizes count alike
// (nccl-tests sweeps sizes geometrically). Why these three: alpha is the latency NCCL's table
// misses, 1/efficiency the bandwidth the links do not deliver, gamma the pipeline fill that makes
// mid sizes slower than alpha-beta predicts. Guards: alpha is fitted only when the scope has rows
// below 1 MiB (otherwise it is unidentifiable: kept at 0, i.e. NCCL's table alone); gamma is
// dropped when the fit makes it negative; a non-positive 1/efficiency is an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"

#include "calibrate/nccl_log.hpp"
#include "sim/network/profile.hpp"
#include "topology/instance.hpp"

namespace ddpsim::calibrate {

// The ranges a profile file may hold (app/input/profile_io.cpp reads with them; a fit outside them is
// refused, located at its first row, instead of writing a profile that cannot be loaded back).
// alpha may be negative: NCCL's latency table can overestimate a machine's latency.
// The residuals' ranges are those of what a fit can write: a log's sizes (below 2^63 B) and times
// (up to 100 days, calibrate/nccl_log.cpp), and predictions as ddpsim times them (never negative,
// at most the picosecond clock's 106 days = 9.2e12 us).
struct ProfileLimits {
  static constexpr double alpha_us_min = -1e6, alpha_us_max = 1e6;
  static constexpr double efficiency_min = 1e-6, efficiency_max = 1e6;
  static constexpr double gamma_us_min = 0, gamma_us_max = 1e9;
  static constexpr double residual_us_max = 1e13;
  static constexpr std::int64_t residual_bytes_max = INT64_MAX;  // 2^63 - 1
};

// Throws UserError when a log does not fit the instance (rank count) or a scope cannot be fitted.
// `algorithm`: "auto" (NCCL's own choice, for logs run without NCCL_ALGO) or the algorithm the
// logs forced (e.g. "ring" for NCCL_ALGO=Ring or NCCL_TREE_THRESHOLD=0).
sim::Profile fit_profile(const InstanceSpec& instance, const std::vector<NcclLog>& logs, const std::string& algorithm = "auto");

// Why a fitted profile is physically implausible, or nullopt: a scope whose efficiency exceeds
// kMaxEfficiency (efficiency is relative to the catalog's achievable rate, line rate x the link
// class's efficiency, itself an estimate: 1.5 leaves room for a conservative catalog derating and
// still refuses a log read as the wrong instance, e.g. 89.5 for p5 read as p3), falls below
// kMinEfficiency, or whose latency alpha is beyond +-kMaxAlphaUs. The location is the scope's
// first fitted row.
inline constexpr double kMaxEfficiency = 1.5;
inline constexpr double kMinEfficiency = 0.02;
inline constexpr double kMaxAlphaUs = 1000;
struct Implausible {
  SourceLocation where;
  std::string reason;
};
std::optional<Implausible> implausible(const sim::Profile& profile);

// The instances other than `except` on which `logs` fit plausibly: an implausible fit's error
// names them (likely the instance the logs were measured on). Instances the logs cannot have
// run on (another shape) are left out.
std::vector<std::string> plausible_instances(const std::vector<InstanceSpec>& instances, const std::vector<NcclLog>& logs,
                                             const std::string& algorithm, const std::string& except);

// Nodes and GPUs per node of a log on `instance` (CSV: its Nodes column; text: ranks / GPUs).
std::pair<int, int> log_shape(const InstanceSpec& instance, const NcclLog& log);

}  // namespace ddpsim::calibrate
