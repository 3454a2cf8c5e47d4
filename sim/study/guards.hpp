// Time-range guard for scenarios: ddpsim's clock is int64 picoseconds (+-106 days). Inputs that
// would make one simulated iteration longer than that are refused up front naming the field that
// drove it (compute.measured_step_s, training.grad_accum_steps, data.per_sample_cpu_s, the NIC
// bandwidth...), and an OverflowError that still escapes the simulation is blamed on the largest
// of the same terms. Estimates are lower bounds of the true terms: a refusal is never wrong.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/network/guards.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

struct TimeTerm {
  std::string field;  // dotted scenario path, e.g. "training.grad_accum_steps"
  double seconds = 0; // a lower bound of this part of one iteration (may be +inf)
  std::string what;   // "compute per step", ...
};

// The terms of one iteration of `nodes` x `gpus_per_node` under `spec`, largest first.
std::vector<TimeTerm> iteration_terms(const ScenarioSpec& spec, int nodes, int gpus_per_node);

// The resource guards (sim/network/guards.hpp) of every configuration of `spec` on `engine`, and
// `step_level`'s size limit (issue 21: every send is simulated). Throws UserError naming the
// field (cluster.nodes, --granularity, training.bucket_cap_mb) and no file.
void check_scenario_resources(const ScenarioSpec& spec, EngineKind engine, bool step_level, const ResourceLimits& limits);

// Throws UserError (field set, no file) when any term of any configuration exceeds the clock.
void check_time_range(const ScenarioSpec& spec);

// An upper bound of the collectives one optimizer step runs under `spec` (any framework it
// compares), for the memory estimate (sim/network/guards.hpp check_collectives).
std::uint64_t collectives_per_step(const ScenarioSpec& spec);

// The UserError to report for an OverflowError raised while simulating `spec`.
UserError blame_overflow(const ScenarioSpec& spec, const std::string& detail);

// Adds a warning to every row the analytical engine priced across an oversubscribed leaf/spine
// fabric: that engine charges each transfer at its link's rate and does not share a leaf's uplink
// among concurrent transfers, so cross-leaf contention is missing (the flow engine shares it:
// docs/model.md, "Fabrics").
void add_engine_warnings(const ScenarioSpec& spec, EngineKind engine, ScenarioReport& report);

}  // namespace ddpsim::sim
