// Helpers shared by the HTML charts (html_charts.cpp, html_timeline.cpp, html_plan_chart.cpp):
// time units and axes, short labels, text width.
#pragma once

#include <cstdint>
#include <string>

#include "app/output/svg.hpp"
#include "app/output/text_format.hpp"

namespace ddpsim::app::charts {

struct Unit {
  double per_second;
  const char* name;
};

// The unit of a time axis whose largest value is `s` seconds.
inline Unit time_unit(double s)
{
  if (s >= 1) return {1, "s"};
  if (s >= 1e-3) return {1e3, "ms"};
  return {1e6, "us"};
}

// A time x axis from 0 to `tmax` seconds in unit `u` with about `ticks` nice ticks (a unit axis
// when there is nothing to draw), then the axes' layout.
inline void time_x_axis(svg::Axes& ax, double tmax, const Unit& u, int ticks)
{
  double lo = 0, hi = tmax > 0 ? tmax * u.per_second : 1;
  svg::nice_domain(lo, hi, false);
  ax.x.d0 = lo, ax.x.d1 = hi;
  ax.xticks = svg::linear_ticks(lo, hi, ticks);
  ax.fit();
}

inline std::string t(double s)
{
  const Unit u = time_unit(s);
  return fmt("%.3g ", s * u.per_second) + u.name;
}

inline std::string mib(std::uint64_t b) { return fmt("%.1f MiB", static_cast<double>(b) / (1024.0 * 1024.0)); }

// Text width estimate for 12 px sans-serif (the page's font), to size margins and legends.
inline double text_px(const std::string& s, double size = 12) { return 0.62 * size * static_cast<double>(s.size()); }

}  // namespace ddpsim::app::charts
