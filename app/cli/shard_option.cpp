#include "app/cli/shard_option.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "core/error.hpp"

namespace ddpsim::app {

void add_shard_option(CLI::App& cmd, std::string& value)
{
  cmd.add_option("--shard", value,
                 "Run shard I of N (0-based) and write JSON Lines for `ddpsim merge`; a bare --shard or \"auto\" takes "
                 "I and N from a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _STEP, _COUNT) or a Kubernetes Indexed "
                 "Job (JOB_COMPLETION_INDEX, N from DDPSIM_SHARD_COUNT); \"auto/N\" gives N (docs/clusters.md)")
      ->expected(0, 1)
      ->type_name("I/N|auto");
}

std::optional<Shard> shard_of(const CLI::App& cmd, const std::string& value, const std::string& trace)
{
  if (cmd.count("--shard") == 0) return std::nullopt;
  if (!trace.empty()) throw UserError(SourceLocation{}, "--trace", "not with --shard (it draws one configuration of a whole run)");
  if (cmd.count("--format") > 0)
    throw UserError(SourceLocation{}, "--format", "a shard writes JSON Lines; give --format to `ddpsim merge`");
  return parse_shard(value, [](const char* name) -> const char* { return std::getenv(name); });
}

}  // namespace ddpsim::app
