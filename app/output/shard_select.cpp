// Which shard this process is: --shard I/N, or from the scheduler's environment (Slurm array
// task, Kubernetes Indexed Job), and the configurations a shard runs.
#include <charconv>

#include "app/output/shards.hpp"
#include "core/error.hpp"

namespace ddpsim::app {
namespace {

std::optional<std::size_t> number(const std::string& s)
{
  std::size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::size_t env_number(const std::function<const char*(const char*)>& env, const char* name)
{
  const char* v = env(name);
  const std::optional<std::size_t> n = v ? number(v) : std::nullopt;
  if (!n) throw UserError(SourceLocation{}, "--shard", std::string(name) + "=\"" + (v ? v : "") + "\" is not a number");
  return *n;
}

// I from the scheduler: a Slurm array task, else a Kubernetes Indexed Job's completion index.
Shard from_environment(const std::function<const char*(const char*)>& env)
{
  if (env("SLURM_ARRAY_TASK_ID")) {
    const std::size_t id = env_number(env, "SLURM_ARRAY_TASK_ID");
    const std::size_t min = env("SLURM_ARRAY_TASK_MIN") ? env_number(env, "SLURM_ARRAY_TASK_MIN") : 0;
    const std::size_t step = env("SLURM_ARRAY_TASK_STEP") ? env_number(env, "SLURM_ARRAY_TASK_STEP") : 1;
    if (id < min || step == 0 || (id - min) % step != 0)
      throw UserError(SourceLocation{}, "--shard",
                      "SLURM_ARRAY_TASK_ID " + std::to_string(id) + " is not MIN + k x STEP; use a range --array=A-B[:S]");
    Shard s{(id - min) / step, 0};
    if (env("SLURM_ARRAY_TASK_COUNT")) s.count = env_number(env, "SLURM_ARRAY_TASK_COUNT");
    return s;
  }
  if (env("JOB_COMPLETION_INDEX")) {
    Shard s{env_number(env, "JOB_COMPLETION_INDEX"), 0};
    if (env("DDPSIM_SHARD_COUNT")) s.count = env_number(env, "DDPSIM_SHARD_COUNT");
    return s;
  }
  throw UserError(SourceLocation{}, "--shard",
                  "no SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment; give --shard I/N");
}

}  // namespace

Shard parse_shard(const std::string& value, const std::function<const char*(const char*)>& env)
{
  const std::size_t slash = value.find('/');
  const std::string first = value.substr(0, slash);
  Shard s;
  if (first == "auto" || first.empty()) {
    s = from_environment(env);
  } else if (auto i = number(first)) {
    s.index = *i;
    if (slash == std::string::npos) throw UserError(SourceLocation{}, "--shard", "expected I/N (e.g. 0/8) or auto, got \"" + value + "\"");
  } else {
    throw UserError(SourceLocation{}, "--shard", "expected I/N (e.g. 0/8) or auto, got \"" + value + "\"");
  }
  if (slash != std::string::npos) {
    const std::optional<std::size_t> n = number(value.substr(slash + 1));
    if (!n) throw UserError(SourceLocation{}, "--shard", "expected I/N (e.g. 0/8) or auto, got \"" + value + "\"");
    s.count = *n;
  }
  if (s.count == 0)
    throw UserError(SourceLocation{}, "--shard",
                    "no shard count: give --shard I/N, or set SLURM_ARRAY_TASK_COUNT (Slurm) or DDPSIM_SHARD_COUNT (Kubernetes)");
  if (s.index >= s.count)
    throw UserError(SourceLocation{}, "--shard",
                    "shard " + std::to_string(s.index) + " of " + std::to_string(s.count) + ": I counts from 0 to N-1");
  return s;
}

std::vector<std::size_t> shard_members(std::size_t count, const Shard& shard)
{
  std::vector<std::size_t> out;
  for (std::size_t i = shard.index; i < count; i += shard.count) out.push_back(i);
  return out;
}

}  // namespace ddpsim::app
