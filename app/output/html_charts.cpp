#include "app/output/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "app/output/chart_parts.hpp"

namespace ddpsim::app {
using namespace charts;

std::string scaling_chart(const std::vector<Labelled>& rows, bool by_gpus)
{
  auto count = [by_gpus](const sim::ConfigResult* r) { return static_cast<double>(by_gpus ? r->gpus : r->nodes); };
  // Series in order of first appearance, each sorted by node count.
  std::vector<std::string> names;
  std::map<std::string, std::vector<const sim::ConfigResult*>> series;
  for (const Labelled& l : rows) {
    if (!series.count(l.series)) names.push_back(l.series);
    series[l.series].push_back(l.result);
  }
  double nlo = 1e300, nhi = 0, ymax = 1;
  for (auto& [name, rs] : series) {
    std::stable_sort(rs.begin(), rs.end(), [&](auto* a, auto* b) { return count(a) < count(b); });
    const double base_nodes = count(rs.front());
    for (const sim::ConfigResult* r : rs) {
      nlo = std::min(nlo, count(r));
      nhi = std::max(nhi, count(r));
      ymax = std::max({ymax, r->speedup, r->speedup_band.set ? r->speedup_band.p90 : 0.0, count(r) / base_nodes});
    }
  }
  // Observed speedups within a series: its first observed row's time over each observed time.
  std::map<const sim::ConfigResult*, double> observed;
  for (auto& [name, rs] : series) {
    const sim::ConfigResult* base = nullptr;
    for (const sim::ConfigResult* r : rs)
      if (r->observed_minutes) {
        if (!base) base = r;
        observed[r] = *base->observed_minutes / *r->observed_minutes;
        ymax = std::max(ymax, observed[r]);
      }
  }
  svg::Axes ax;
  ax.height = 400;
  ax.title = by_gpus ? "Scaling: speedup vs GPUs" : "Scaling: speedup vs nodes";
  ax.xlabel = by_gpus ? "GPUs (log scale)" : "nodes (log scale)";
  ax.ylabel = "speedup (x, against the series' first row)";
  ax.x.log = true;
  if (nhi <= nlo) nlo /= 2, nhi *= 2;
  svg::nice_domain(nlo, nhi, true, true);
  double ylo = 0, yhi = ymax * 1.05;
  svg::nice_domain(ylo, yhi, false);
  ax.x.d0 = nlo, ax.x.d1 = nhi, ax.y.d0 = ylo, ax.y.d1 = yhi;
  ax.xticks = svg::log_ticks(nlo, nhi, true);
  ax.yticks = svg::linear_ticks(ylo, yhi, 6);
  ax.fit();
  svg::Writer w(ax.width, ax.height, ax.title);
  ax.draw(w);
  std::vector<svg::LegendEntry> legend;
  bool any_band = false, any_observed = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& rs = series[names[i]];
    const std::string c = svg::colour(i);
    // Linear scaling from the series' first row, dashed in the series' colour.
    const double n0 = count(rs.front()), s0 = rs.front()->speedup;
    std::vector<std::pair<double, double>> ideal, pts;
    for (const sim::ConfigResult* r : rs) ideal.emplace_back(ax.x(count(r)), ax.y(s0 * count(r) / n0));
    w.polyline(ideal, c, 1.2, "5,4");
    for (const sim::ConfigResult* r : rs) pts.emplace_back(ax.x(count(r)), ax.y(r->speedup));
    w.polyline(pts, c, 2.2);
    for (const sim::ConfigResult* r : rs) {
      const double px = ax.x(count(r));
      std::string tip = names[i] + ", " + std::to_string(r->nodes) + " nodes, " + std::to_string(r->gpus) + " GPUs: speedup " + fmt("%.2fx", r->speedup);
      if (r->speedup_band.set) {
        any_band = true;
        tip += fmt(" (p10 %.2f", r->speedup_band.p10) + fmt(", p90 %.2f)", r->speedup_band.p90);
        const double a = ax.y(r->speedup_band.p10), b = ax.y(r->speedup_band.p90);
        w.line(px, a, px, b, c, 1.6);
        w.line(px - 5, a, px + 5, a, c, 1.6);
        w.line(px - 5, b, px + 5, b, c, 1.6);
      }
      w.marker(static_cast<int>(i), px, ax.y(r->speedup), 5, c, "#ffffff", tip);
      if (auto o = observed.find(r); o != observed.end()) {
        any_observed = true;
        w.marker(static_cast<int>(i), px, ax.y(o->second), 6, "#ffffff", c,
                 names[i] + ", " + std::to_string(r->nodes) + " nodes, " + std::to_string(r->gpus) + " GPUs: observed speedup " + fmt("%.2fx", o->second));
      }
    }
    legend.push_back({names[i], c, static_cast<int>(i), "", false});
  }
  legend.push_back({"linear scaling", "#555555", -1, "5,4", false});
  if (any_observed) legend.push_back({"observed", "#555555", 0, "", true});
  if (any_band) legend.push_back({"p10-p90 interval (bars)", "#555555", -1, "", false});
  svg::legend(w, ax.x0() + 14, ax.y1() + 8, legend);
  return w.finish();
}

std::string breakdown_chart(const std::vector<Labelled>& rows)
{
  struct Part {
    const char* name;
    const char* colour;
  };
  const Part parts[] = {{"compute (forward + backward)", "#0072B2"},
                        {"exposed communication", "#D55E00"},
                        {"loader wait", "#E69F00"},
                        {"optimizer + overhead", "#009E73"}};
  double longest = 0, tmax = 0;
  for (const Labelled& l : rows) {
    longest = std::max(longest, text_px(l.label));
    tmax = std::max(tmax, l.result->step_time_s);
  }
  const Unit u = time_unit(tmax);
  svg::Axes ax;
  ax.left = std::min(360.0, longest + 16);
  ax.right = 80;  // room for the step's label
  ax.top = 64;
  const double bar = 18, gap = 8;
  ax.height = ax.top + ax.bottom + static_cast<double>(rows.size()) * (bar + gap) + gap;
  ax.title = "Step time breakdown per configuration";
  ax.xlabel = std::string("time per optimizer step (") + u.name + ")";
  time_x_axis(ax, tmax, u, 7);
  svg::Writer w(ax.width, ax.height, ax.title);
  ax.draw(w);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const sim::ConfigResult& r = *rows[i].result;
    const double y = ax.top + gap + static_cast<double>(i) * (bar + gap);
    w.text(ax.x0() - 8, y + bar / 2 + 4.5, rows[i].label, "end", 12);
    const double values[] = {r.compute_s, r.exposed_comm_s, r.loader_wait_s, r.optimizer_s + r.overhead_s};
    double at = 0;
    for (std::size_t p = 0; p < 4; ++p) {
      const double x = ax.x(at * u.per_second), x2 = ax.x((at + values[p]) * u.per_second);
      w.rect(x, y, x2 - x, bar, parts[p].colour,
             rows[i].label + ": " + parts[p].name + " " + t(values[p]) + " of the step " + t(r.step_time_s) +
                 (p == 1 ? "; communication " + t(r.comm_s) + " in all, " + t(r.comm_s - r.exposed_comm_s) +
                               " hidden behind backward"
                         : ""));
      at += values[p];
    }
    w.text(ax.x(at * u.per_second) + 4, y + bar / 2 + 4.5, t(r.step_time_s), "start", 11, "fill=\"#333\"");
  }
  // The legend in one row above the bars.
  double lx = ax.x0();
  for (const Part& p : parts) {
    w.rect(lx, 36, 14, 12, p.colour);
    w.text(lx + 19, 46.5, p.name, "start", 12);
    lx += 19 + text_px(p.name) + 22;
  }
  return w.finish();
}

}  // namespace ddpsim::app
