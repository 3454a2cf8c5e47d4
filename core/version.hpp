// A dotted release number ("2.4.8", "2.4", "2.18.5-1", "2.4.7ms1"), compared component-wise.
// The software a scenario names (NCCL, aws-ofi-nccl) decides what runs: which transports
// (topology/transport.hpp) and which of NCCL's algorithms and protocols exist (algorithms/).
#pragma once

#include <compare>
#include <string>

namespace ddpsim {

struct Version {
  int major = 0, minor = 0, patch = 0;
  friend auto operator<=>(const Version&, const Version&) = default;
};

// Returns false (and leaves `out` alone) when `text` is not a version. {0,0,0}: unknown.
bool parse_version(const std::string& text, Version& out);
std::string to_string(const Version& v);

// The NCCL release a scenario runs when it names none: the current era (DLAMI/DLC images of
// 2024-2025; docs/scenario.md `software:`).
inline constexpr Version kDefaultNccl{2, 21, 5};

}  // namespace ddpsim
