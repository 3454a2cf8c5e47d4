// The iteration timeline chart: when each gradient bucket became ready and when its reduction ran.
#include "app/output/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "app/output/chart_parts.hpp"

namespace ddpsim::app {
using namespace charts;

std::string timeline_chart(const std::vector<Labelled>& rows)
{
  double longest = 0, tmax = 0;
  // Sub-lanes: a reduction goes to the first sub-lane free at its start (streams that overlap).
  std::vector<std::vector<int>> lane_of(rows.size());
  std::vector<int> lanes(rows.size(), 1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    longest = std::max(longest, text_px(rows[i].label));
    const sim::ConfigResult& r = *rows[i].result;
    std::vector<double> free_at;
    for (const sim::BucketResult& b : r.buckets) {
      tmax = std::max({tmax, b.end_s, b.ready_s});
      std::size_t k = 0;
      while (k < free_at.size() && free_at[k] > b.start_s + 1e-12) ++k;
      if (k == free_at.size()) free_at.push_back(0);
      free_at[k] = b.end_s;
      lane_of[i].push_back(static_cast<int>(k));
    }
    lanes[i] = std::max<int>(1, static_cast<int>(free_at.size()));
  }
  const Unit u = time_unit(tmax);
  svg::Axes ax;
  ax.left = std::min(360.0, longest + 16);
  ax.right = 40;
  ax.top = 64;
  const double sub = 14, gap = 16;
  double total = 0;
  for (int n : lanes) total += n * sub + gap;
  ax.height = ax.top + ax.bottom + total + gap;
  ax.title = "Gradient buckets: ready and reduction times within one step";
  ax.xlabel = std::string("time since the step began (") + u.name + ")";
  time_x_axis(ax, tmax, u, 8);
  svg::Writer w(ax.width, ax.height, ax.title);
  ax.draw(w);
  const char* shades[] = {"#D55E00", "#F0A070"};  // alternate so neighbouring buckets stay apart
  double y = ax.top + gap;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const sim::ConfigResult& r = *rows[i].result;
    const double h = lanes[i] * sub;
    w.text(ax.x0() - 8, y + h / 2 + 4.5, rows[i].label, "end", 12);
    w.rect(ax.x0(), y - 3, ax.x1() - ax.x0(), h + 6, "#f6f6f6");
    if (r.buckets.empty()) w.text(ax.x0() + 6, y + h / 2 + 4.5, "no gradient reduction (one GPU)", "start", 11, "fill=\"#555\"");
    for (std::size_t k = 0; k < r.buckets.size(); ++k) {
      const sim::BucketResult& b = r.buckets[k];
      const double by = y + lane_of[i][k] * sub;
      const double xr = ax.x(b.ready_s * u.per_second), xs = ax.x(b.start_s * u.per_second),
                   xe = ax.x(b.end_s * u.per_second);
      if (xs - xr > 0.5) w.line(xr, by + sub / 2, xs, by + sub / 2, "#888888", 1);
      w.line(xr, by + 1, xr, by + sub - 1, "#333333", 1);
      w.rect(xs, by + 2, std::max(xe - xs, 1.0), sub - 4, shades[k % 2],
             rows[i].label + ": bucket " + std::to_string(k + 1) + ", " + mib(b.bytes) + ", " + b.algorithm +
                 (b.protocol.empty() ? "" : "/" + b.protocol) + ", ready " + t(b.ready_s) + ", start " + t(b.start_s) +
                 ", reduction " + t(b.time_s()));
    }
    y += h + gap;
  }
  // Legend in one row above the lanes.
  double lx = ax.x0();
  w.line(lx + 4, 36, lx + 4, 48, "#333333", 1);
  w.text(lx + 12, 46.5, "bucket ready (backward produced it)", "start", 12);
  lx += 12 + text_px("bucket ready (backward produced it)") + 22;
  w.line(lx, 42, lx + 18, 42, "#888888", 1);
  w.text(lx + 24, 46.5, "waiting for the stream", "start", 12);
  lx += 24 + text_px("waiting for the stream") + 22;
  w.rect(lx, 36, 10, 12, shades[0]);
  w.rect(lx + 10, 36, 10, 12, shades[1]);
  w.text(lx + 26, 46.5, "reduction (alternate buckets)", "start", 12);
  return w.finish();
}

}  // namespace ddpsim::app
