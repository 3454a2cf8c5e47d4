// Time in the unit people read (issue 20): one value ("14.63 ms"), or one unit for a whole table
// column, chosen from the column's smallest value so that no entry prints as 0.00.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "app/output/text_format.hpp"

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

// The unit of a column holding `seconds` (zeros and negatives ignored; seconds when empty).
inline TimeUnit column_unit(const std::vector<double>& seconds)
{
  double least = 0;
  for (double s : seconds)
    if (s > 0 && (least == 0 || s < least)) least = s;
  return unit_for(least > 0 ? least : 1);
}

// `s` in unit `u`, without the unit's name.
inline std::string in_unit(double s, const TimeUnit& u) { return fmt(u.format, s * u.per_second); }

}  // namespace ddpsim::app
