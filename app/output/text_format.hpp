// Small text helpers shared by the reporters (table, plan, collective): printf-style numbers and
// column padding.
#pragma once

#include <cstdio>
#include <string>

namespace ddpsim::app {

// One number through a printf format, e.g. fmt("%.2f ms", 14.6).
inline std::string fmt(const char* format, double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// `s` padded with spaces to `width` (right-aligned unless `right` is false); longer strings stay.
inline std::string pad(const std::string& s, std::size_t width, bool right = true)
{
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace ddpsim::app
