// Resource guards: decided up front from the input, before a topology or a schedule is built, so
// an input that cannot run within the limits is refused in well under a second instead of dying
// of bad_alloc minutes later. The memory model is a linear fit of measured peak RSS per simulated
// GPU and per flow (docs/reliability.md has the measurements and the command that made them).
#pragma once

#include <cstdint>
#include <string>

#include "core/units.hpp"
#include "sim/network/backends.hpp"

namespace ddpsim::sim {

// The largest cluster ddpsim simulates (GPUs). Larger inputs are refused whatever the memory.
inline constexpr std::int64_t kMaxSimulatedGpus = 131072;

// What the simulation builds per configuration, which decides how memory grows.
enum class Workload {
  ring,         // DDP, Lightning, Horovod, Gloo: schedules linear in the GPUs
  all_to_all,   // SMDDP (Herring) and the parameter server: flows between every pair of nodes
  collective,   // `ddpsim collective`: every algorithm priced per size (grows with GPUs squared)
};

struct ResourceLimits {
  Bytes max_memory{4ull << 30};  // --max-memory; default 4 GiB
};

struct ResourceEstimate {
  std::int64_t gpus = 0;   // simulated ranks
  std::int64_t flows = 0;  // flows the flow engine would hold at once (0 for analytical)
  Bytes memory;            // peak resident memory, estimated
};

ResourceEstimate estimate_resources(std::int64_t nodes, std::int64_t gpus_per_node, EngineKind engine,
                                    Workload workload);

// Throws UserError naming `field` (e.g. "cluster.nodes", "--nodes") when the cluster exceeds
// kMaxSimulatedGpus or the estimate exceeds limits.max_memory.
void check_resources(std::int64_t nodes, std::int64_t gpus_per_node, EngineKind engine, Workload workload,
                     const ResourceLimits& limits, const std::string& field);

// The schedules of `collectives` collectives per step on `gpus` GPUs (each holds a few flows per
// rank): throws UserError naming `field` when they alone, with the base, pass limits.max_memory.
void check_collectives(std::uint64_t collectives, std::int64_t gpus, const ResourceLimits& limits,
                       const std::string& field);

// "4GiB", "512MiB", ...: the --max-memory option's text; UserError naming --max-memory otherwise.
Bytes parse_max_memory(const std::string& text);

}  // namespace ddpsim::sim
