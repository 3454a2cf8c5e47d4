// Small text helpers shared by the reporters (table, plan, collective): printf-style numbers,
// column padding and CSV quoting.
#pragma once

#include <cstdio>
#include <string>

#include "core/text.hpp"  // fmt

namespace ddpsim::app {

// `s` padded with spaces to `width` (right-aligned unless `right` is false); longer strings stay.
inline std::string pad(const std::string& s, std::size_t width, bool right = true)
{
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

// RFC 4180: a field with a comma, quote or newline is quoted, quotes doubled.
inline std::string csv_quote(const std::string& s)
{
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace ddpsim::app
