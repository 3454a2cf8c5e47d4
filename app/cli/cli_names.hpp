// One naming scheme across the subcommands (issue 11): --output, --gpus-per-node, --algorithm.
// Earlier spellings (--out, --algo) stay accepted as hidden aliases so existing scripts keep
// working; they write the same variable and do not appear in --help.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/error.hpp"

namespace ddpsim::app {

inline CLI::Option* add_hidden_alias(CLI::App* cmd, const std::string& old_name, std::string& target)
{
  return cmd->add_option(old_name, target, "alias")->group("");
}

// A required option that has a hidden alias cannot use CLI11's required(): the alias would not
// satisfy it. Checked after parsing instead, with the same one-line usage error.
inline void require_option(const std::string& value, const std::string& name)
{
  if (value.empty()) throw UserError(name + ": missing (this option is required)");
}

}  // namespace ddpsim::app
