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

}  // namespace ddpsim::app
