// Helpers shared by the scenario reporters (report_table.cpp, report_whatif.cpp, report_json.cpp,
// report_csv.cpp): times in a readable unit, [p10, p90] bands beside a value.
#pragma once

#include <string>

#include "app/output/text_format.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

struct TimeUnit {
  double per_second;
  const char* format;
  const char* name;
};

inline TimeUnit unit_for(double s)
{
  if (s >= 3600) return {1.0 / 3600, "%.2f", "h"};
  if (s >= 60) return {1.0 / 60, "%.1f", "min"};
  if (s >= 1) return {1, "%.2f", "s"};
  if (s >= 1e-3) return {1e3, "%.2f", "ms"};
  return {1e6, "%.1f", "us"};
}

inline std::string human_time(double s)
{
  const TimeUnit u = unit_for(s);
  return fmt(u.format, s * u.per_second) + " " + u.name;
}

// A value with its [p10, p90] band in the same unit: "14.60 ms (13.90-15.40)".
inline std::string with_band(const std::string& value, const char* format, double scale, const sim::ConfigResult::Band& b)
{
  if (!b.set) return value;
  return value + " (" + fmt(format, b.p10 * scale) + "-" + fmt(format, b.p90 * scale) + ")";
}

inline std::string time_band(double s, const sim::ConfigResult::Band& b)
{
  const TimeUnit u = unit_for(s);
  return with_band(human_time(s), u.format, u.per_second, b);
}

inline std::string gib(Bytes b) { return fmt("%.1f GiB", static_cast<double>(b.n) / static_cast<double>(GiB)); }

// The what-if tables printed under the main table (report_whatif.cpp); "" when no row has one.
std::string resilience_table(const sim::ScenarioReport& rep);
std::string stragglers_table(const sim::ScenarioReport& rep);

}  // namespace ddpsim::app
