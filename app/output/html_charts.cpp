#include "app/output/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "app/output/svg.hpp"
#include "app/output/text_format.hpp"

namespace ddpsim::app {
namespace {

struct Unit {
  double per_second;
  const char* name;
};

// The unit of a time axis whose largest value is `s` seconds.
Unit time_unit(double s)
{
  if (s >= 1) return {1, "s"};
  if (s >= 1e-3) return {1e3, "ms"};
  return {1e6, "us"};
}

// A time x axis from 0 to `tmax` seconds in unit `u` with about `ticks` nice ticks (a unit axis
// when there is nothing to draw), then the axes' layout.
void time_x_axis(svg::Axes& ax, double tmax, const Unit& u, int ticks)
{
  double lo = 0, hi = tmax > 0 ? tmax * u.per_second : 1;
  svg::nice_domain(lo, hi, false);
  ax.x.d0 = lo, ax.x.d1 = hi;
  ax.xticks = svg::linear_ticks(lo, hi, ticks);
  ax.fit();
}

std::string t(double s)
{
  const Unit u = time_unit(s);
  return fmt("%.3g ", s * u.per_second) + u.name;
}

std::string mib(std::uint64_t b) { return fmt("%.1f MiB", static_cast<double>(b) / (1024.0 * 1024.0)); }

// Text width estimate for 12 px sans-serif (the page's font), to size margins and legends.
double text_px(const std::string& s, double size = 12) { return 0.62 * size * static_cast<double>(s.size()); }

}  // namespace

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

std::string cost_time_chart(const sim::PlanReport& rep, const std::vector<std::string>& row_labels)
{
  std::vector<std::string> instances, frameworks;
  auto index = [](std::vector<std::string>& v, const std::string& s) {
    auto it = std::find(v.begin(), v.end(), s);
    if (it != v.end()) return static_cast<std::size_t>(it - v.begin());
    v.push_back(s);
    return v.size() - 1;
  };
  double tlo = 1e300, thi = 0, clo = 1e300, chi = 0;
  for (const sim::PlanRow& row : rep.rows) {
    if (!row.result.fits || !(row.result.total_time_s > 0) || !(row.result.cost_usd > 0)) continue;
    index(instances, row.result.instance), index(frameworks, row.result.framework);
    tlo = std::min(tlo, row.result.total_time_s / 3600), thi = std::max(thi, row.result.total_time_s / 3600);
    clo = std::min(clo, row.result.cost_usd), chi = std::max(chi, row.result.cost_usd);
  }
  if (thi == 0) tlo = 0.1, thi = 10, clo = 1, chi = 100;  // nothing fits: empty axes
  if (rep.goal.deadline_s) tlo = std::min(tlo, *rep.goal.deadline_s / 3600), thi = std::max(thi, *rep.goal.deadline_s / 3600);
  if (rep.goal.budget_usd) clo = std::min(clo, *rep.goal.budget_usd), chi = std::max(chi, *rep.goal.budget_usd);
  svg::Axes ax;
  ax.height = 460;
  ax.right = 250;  // the legend sits right of the plot
  ax.title = "Time vs cost of every configuration that fits";
  ax.xlabel = "total time (hours, log scale)";
  ax.ylabel = "cost (USD, log scale)";
  ax.x.log = ax.y.log = true;
  svg::nice_domain(tlo, thi, true);
  svg::nice_domain(clo, chi, true);
  ax.x.d0 = tlo, ax.x.d1 = thi, ax.y.d0 = clo, ax.y.d1 = chi;
  ax.xticks = svg::log_ticks(tlo, thi);
  ax.yticks = svg::log_ticks(clo, chi);
  ax.fit();
  svg::Writer w(ax.width, ax.height, ax.title);
  ax.draw(w);
  if (rep.goal.deadline_s) {
    const double x = ax.x(*rep.goal.deadline_s / 3600);
    w.line(x, ax.y0(), x, ax.y1(), "#C00000", 1.6, "7,4");
    w.text(x - 4, ax.y1() + 14, "deadline " + fmt("%.3g h", *rep.goal.deadline_s / 3600), "end", 12, "fill=\"#C00000\"");
  }
  if (rep.goal.budget_usd) {
    const double y = ax.y(*rep.goal.budget_usd);
    w.line(ax.x0(), y, ax.x1(), y, "#7A0099", 1.6, "2,4");
    w.text(ax.x1() - 4, y - 6, "budget " + fmt("$%.0f", *rep.goal.budget_usd), "end", 12, "fill=\"#7A0099\"");
  }
  // The frontier, fastest first, as a staircase would hide nothing here: a line through the points.
  std::vector<const sim::PlanRow*> front;
  for (const sim::PlanRow& row : rep.rows)
    if (row.pareto) front.push_back(&row);
  std::stable_sort(front.begin(), front.end(),
                   [](auto* a, auto* b) { return a->result.total_time_s < b->result.total_time_s; });
  std::vector<std::pair<double, double>> pts;
  for (const sim::PlanRow* r : front) pts.emplace_back(ax.x(r->result.total_time_s / 3600), ax.y(r->result.cost_usd));
  w.polyline(pts, "#222222", 1.8);
  for (const sim::PlanRow* r : front)  // node counts beside the frontier's points
    w.text(ax.x(r->result.total_time_s / 3600), ax.y(r->result.cost_usd) - 9, "x" + std::to_string(r->result.nodes),
           "middle", 11, "fill=\"#333\"");
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const sim::PlanRow& row = rep.rows[i];
    const sim::ConfigResult& r = row.result;
    if (!r.fits || !(r.total_time_s > 0) || !(r.cost_usd > 0)) continue;
    const std::string c = svg::colour(index(instances, r.instance));
    const int shape = static_cast<int>(index(frameworks, r.framework));
    const std::string tip = row_labels[i] + ": " + fmt("%.3g h", r.total_time_s / 3600) + ", " + fmt("$%.2f", r.cost_usd) +
                            (row.pareto ? ", on the Pareto frontier" : "") +
                            (row.excluded.empty() ? "" : ", excluded: " + row.excluded);
    // Excluded configurations (deadline, budget) hollow, candidates filled.
    if (row.excluded.empty())
      w.marker(shape, ax.x(r.total_time_s / 3600), ax.y(r.cost_usd), 5, c, "#ffffff", tip);
    else
      w.marker(shape, ax.x(r.total_time_s / 3600), ax.y(r.cost_usd), 4.5, "#ffffff", c, tip);
  }
  if (rep.recommended) {
    const sim::ConfigResult& r = rep.rows[*rep.recommended].result;
    const double x = ax.x(r.total_time_s / 3600), y = ax.y(r.cost_usd);
    w.circle(x, y, 11, "none", "#000000", "recommended: " + row_labels[*rep.recommended]);
    w.text(x + 14, y + 20, "recommended", "start", 12, "font-weight=\"bold\"");
  }
  std::vector<svg::LegendEntry> legend;
  for (std::size_t i = 0; i < instances.size(); ++i) legend.push_back({instances[i], svg::colour(i), -2, "", false});
  for (std::size_t i = 0; i < frameworks.size(); ++i) legend.push_back({frameworks[i], "#555555", static_cast<int>(i), "", false});
  legend.push_back({"Pareto frontier", "#222222", -1, "", false});
  if (rep.goal.deadline_s) legend.push_back({"deadline", "#C00000", -1, "7,4", false});
  if (rep.goal.budget_usd) legend.push_back({"budget", "#7A0099", -1, "2,4", false});
  svg::legend(w, ax.x1() + 16, ax.y1(), legend);
  w.text(ax.x1() + 16, ax.y1() + 19 * static_cast<double>(legend.size()) + 30, "hollow: misses the deadline", "start", 11);
  w.text(ax.x1() + 16, ax.y1() + 19 * static_cast<double>(legend.size()) + 45, "or the budget", "start", 11);
  w.text(ax.x1() + 16, ax.y1() + 19 * static_cast<double>(legend.size()) + 60, "ring: recommended", "start", 11);
  return w.finish();
}

}  // namespace ddpsim::app
