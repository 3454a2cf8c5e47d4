// Calibration profiles as YAML files (profiles/*.yaml): written by `ddpsim calibrate fit`, read
// by `ddpsim collective --profile` and by scenarios (`communication.profile`). Times carry units
// ("1.25us"); numbers are printed with fixed precision so the same fit gives the same bytes.
#pragma once

#include <optional>
#include <string>

#include "sim/network/profile.hpp"

namespace ddpsim::app {

std::string profile_yaml(const sim::Profile& p);
// Throws UserError(s) with file:line:column for a malformed profile.
sim::Profile parse_profile(const std::string& name, const std::string& text);
sim::Profile load_profile(const std::string& path);

// The shipped profile (profiles/<instance>.yaml, compiled in) for an instance ("ml." prefix
// accepted), or nullopt when none was fitted for it.
std::optional<sim::Profile> builtin_profile(const std::string& instance);

// The one default-profile rule and the one instance check, shared by every command that prices a
// collective (`scenario`'s communication.profile, `collective`, `expect`, `calibrate export`):
// "" -> the shipped profile of the instance when there is one, else the catalog alone; "none" ->
// the catalog alone; anything else -> that file, which must be for `instance` (an "ml." prefix on
// either side is ignored), else a UserError at the file's `instance:` line ("profile is for X, not
// Y"). An empty `instance` takes the file's own. `source` says which, for the outputs.
struct ResolvedProfile {
  sim::Profile profile;
  std::string source;
  std::string file;      // "" (the catalog alone), the given file, or profiles/NAME.yaml (shipped)
  bool shipped = false;  // compiled in
};
ResolvedProfile resolve_profile(const std::string& instance, const std::string& requested);

}  // namespace ddpsim::app
