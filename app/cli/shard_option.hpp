// The --shard option of `ddpsim scenario` and `ddpsim plan` (issue 11; app/output/shards.hpp).
#pragma once

#include <optional>
#include <string>

#include "app/output/shards.hpp"

namespace CLI {
class App;
}

namespace ddpsim::app {

// Adds `--shard [I/N|auto|auto/N]` to `cmd`, bound to `value`.
void add_shard_option(CLI::App& cmd, std::string& value);

// The shard when --shard was given (reading the scheduler's environment for "auto"), else
// nothing. A shard writes JSON Lines, so --format and --trace (one configuration of a whole run)
// are refused with it; `trace` is the --trace value ("" when not given).
std::optional<Shard> shard_of(const CLI::App& cmd, const std::string& value, const std::string& trace);

}  // namespace ddpsim::app
