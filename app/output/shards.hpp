// Sharded sweeps (issue 11): `ddpsim scenario|plan --shard I/N` runs configuration i (scenario)
// or variant v (plan) when i (v) mod N == I and writes JSON Lines: one header line identifying
// the input (path, SHA-256 of its bytes and of the options that change results), I, N and what a
// report needs besides the rows (the "frame"), then one line per configuration with readable
// fields and the exact row as JSON (sim/study/row_json.hpp: the one row field list, bit-exact,
// independent of byte order and type sizes). The header's "ddpsim_shard" is the format version;
// every line carries "check", the SHA-256 of the line without it. `ddpsim merge` refuses a foreign
// file, another format version or a corrupt line with its file and line, checks that the shards
// belong together and are complete, and rebuilds the report a serial run gives, byte for byte.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/study/plan.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

struct Shard {
  std::size_t index = 0;  // 0-based
  std::size_t count = 1;
};

// `--shard` values: "I/N" (0 <= I < N); "auto" (also a bare `--shard`): I and N from a Slurm job
// array (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, divided by SLURM_ARRAY_TASK_STEP, of
// SLURM_ARRAY_TASK_COUNT) or else a Kubernetes Indexed Job (JOB_COMPLETION_INDEX of
// DDPSIM_SHARD_COUNT, which the manifest sets to the Job's completions); "auto/N": I from the
// environment, N given. `env` looks a variable up (getenv in the CLI, a map in tests).
// Throws UserError on malformed values or a missing environment.
Shard parse_shard(const std::string& value, const std::function<const char*(const char*)>& env);

// What identifies a shard's input: the command, the input's path and its SHA-256 (over the
// file's bytes and `options`, the command-line settings that change results).
struct ShardInput {
  std::string command;  // "scenario" or "plan"
  std::string path;
  std::string options;
};
std::string sha256_hex(const std::string& bytes);

// A scenario shard: `report` comes from sim::run_scenario with RunOptions::shard_* set; only the
// shard's own rows are written.
std::string scenario_shard_jsonl(const sim::ScenarioReport& report, const Shard& shard, const ShardInput& in);

// A plan shard: `results[k]` are the rows of variant `variants[k]` (the shard's variants, in order).
std::string plan_shard_jsonl(const sim::PlanFrame& frame, const sim::Goal& goal, const std::vector<std::size_t>& variants,
                             const std::vector<std::vector<sim::ConfigResult>>& results, const Shard& shard,
                             const ShardInput& in);

// The shards' variants of a plan with `count` variants.
std::vector<std::size_t> shard_members(std::size_t count, const Shard& shard);

// Merged shards: exactly one of the two reports is set (by the shards' command).
struct Merged {
  std::string command;
  std::optional<sim::ScenarioReport> scenario;
  std::optional<sim::PlanReport> plan;
};

// Reads shard files and merges them. UserError (`file:line:col: error: field: message`) when a
// file is not a shard, shards come from different inputs or settings, a shard is given twice, one
// is missing or a shard lacks rows.
Merged merge_shards(const std::vector<std::string>& paths);

}  // namespace ddpsim::app
