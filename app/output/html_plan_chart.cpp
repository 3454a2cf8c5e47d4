// The plan chart: total time vs cost of every configuration that fits.
#include "app/output/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "app/output/chart_parts.hpp"
#include "app/output/label_place.hpp"

namespace ddpsim::app {
using namespace charts;

std::string cost_time_chart(const sim::PlanReport& rep, const std::vector<std::string>& row_labels)
{
  // Each row where the goal judged it: its central value, or the p90 of its band (goal.confidence).
  const auto T = [&rep](const sim::ConfigResult& r) { return sim::judged_time_s(r, rep.goal); };
  const auto C = [&rep](const sim::ConfigResult& r) { return sim::judged_cost_usd(r, rep.goal); };
  const std::string at = rep.goal.at_p90 ? ", p90" : "";
  std::vector<std::string> instances, frameworks;
  auto index = [](std::vector<std::string>& v, const std::string& s) {
    auto it = std::find(v.begin(), v.end(), s);
    if (it != v.end()) return static_cast<std::size_t>(it - v.begin());
    v.push_back(s);
    return v.size() - 1;
  };
  double tlo = 1e300, thi = 0, clo = 1e300, chi = 0;
  for (const sim::PlanRow& row : rep.rows) {
    if (!row.result.fits || !(T(row.result) > 0) || !(C(row.result) > 0)) continue;
    index(instances, row.result.instance), index(frameworks, row.result.framework);
    tlo = std::min(tlo, T(row.result) / 3600), thi = std::max(thi, T(row.result) / 3600);
    clo = std::min(clo, C(row.result)), chi = std::max(chi, C(row.result));
  }
  if (thi == 0) tlo = 0.1, thi = 10, clo = 1, chi = 100;  // nothing fits: empty axes
  if (rep.goal.deadline_s) tlo = std::min(tlo, *rep.goal.deadline_s / 3600), thi = std::max(thi, *rep.goal.deadline_s / 3600);
  if (rep.goal.budget_usd) clo = std::min(clo, *rep.goal.budget_usd), chi = std::max(chi, *rep.goal.budget_usd);
  svg::Axes ax;
  ax.height = 460;
  ax.right = 250;  // the legend sits right of the plot
  ax.title = "Time vs cost of every configuration that fits";
  ax.xlabel = "total time (hours" + at + ", log scale)";
  ax.ylabel = "cost (USD" + at + ", log scale)";
  ax.x.log = ax.y.log = true;
  svg::nice_domain(tlo, thi, true);
  svg::nice_domain(clo, chi, true);
  ax.x.d0 = tlo, ax.x.d1 = thi, ax.y.d0 = clo, ax.y.d1 = chi;
  ax.xticks = svg::log_ticks(tlo, thi);
  ax.yticks = svg::log_ticks(clo, chi);
  ax.fit();
  svg::Writer w(ax.width, ax.height, ax.title);
  ax.draw(w);
  // Labels are placed after every marker is known (issue 20: a label overlapped points): markers
  // and the ring are obstacles, lines are avoided where possible (app/output/label_place.hpp).
  svg::LabelPlacer placer({ax.x0() + 2, ax.y1() + 2, ax.x1() - 2, ax.y0() - 2});
  if (rep.goal.deadline_s) {
    const double x = ax.x(*rep.goal.deadline_s / 3600);
    w.line(x, ax.y0(), x, ax.y1(), "#C00000", 1.6, "7,4");
    placer.avoid_line(x, ax.y0(), x, ax.y1());
  }
  if (rep.goal.budget_usd) {
    const double y = ax.y(*rep.goal.budget_usd);
    w.line(ax.x0(), y, ax.x1(), y, "#7A0099", 1.6, "2,4");
    placer.avoid_line(ax.x0(), y, ax.x1(), y);
  }
  // The frontier, fastest first, as a staircase would hide nothing here: a line through the points.
  std::vector<const sim::PlanRow*> front;
  for (const sim::PlanRow& row : rep.rows)
    if (row.pareto) front.push_back(&row);
  std::stable_sort(front.begin(), front.end(),
                   [&](auto* a, auto* b) { return T(a->result) < T(b->result); });
  std::vector<std::pair<double, double>> pts;
  for (const sim::PlanRow* r : front) pts.emplace_back(ax.x(T(r->result) / 3600), ax.y(C(r->result)));
  w.polyline(pts, "#222222", 1.8);
  for (std::size_t i = 1; i < pts.size(); ++i) placer.avoid_line(pts[i - 1].first, pts[i - 1].second, pts[i].first, pts[i].second);
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const sim::PlanRow& row = rep.rows[i];
    const sim::ConfigResult& r = row.result;
    if (!r.fits || !(T(r) > 0) || !(C(r) > 0)) continue;
    const std::string c = svg::colour(index(instances, r.instance));
    const int shape = static_cast<int>(index(frameworks, r.framework));
    const std::string tip = row_labels[i] + ": " + fmt("%.3g h", T(r) / 3600) + ", " + fmt("$%.2f", C(r)) +
                            (row.pareto ? ", on the Pareto frontier" : "") +
                            (row.excluded.empty() ? "" : ", excluded: " + row.excluded);
    const double x = ax.x(T(r) / 3600), y = ax.y(C(r));
    // Excluded configurations (deadline, budget) hollow, candidates filled.
    if (row.excluded.empty())
      w.marker(shape, x, y, 5, c, "#ffffff", tip);
    else
      w.marker(shape, x, y, 4.5, "#ffffff", c, tip);
    placer.block_marker(x, y, 5);
  }
  const sim::PlanRow* rec = rep.recommended ? &rep.rows[*rep.recommended] : nullptr;
  if (rec) {
    const double x = ax.x(T(rec->result) / 3600), y = ax.y(C(rec->result));
    w.circle(x, y, 11, "none", "#000000", "recommended: " + row_labels[*rep.recommended]);
    placer.block({x - 12, y - 12, x + 12, y + 12});
  }
  // The labels, most important first: the recommended point, the frontier's node counts fastest
  // first, then the goal lines' names along their lines.
  struct Label {
    const sim::PlanRow* row;
    std::string text;
    bool bold;
  };
  std::vector<Label> labels;
  if (rec) labels.push_back({rec, (rec->pareto ? "x" + std::to_string(rec->result.nodes) + " " : "") + "recommended", true});
  for (const sim::PlanRow* r : front)
    if (r != rec) labels.push_back({r, "x" + std::to_string(r->result.nodes), false});
  for (const Label& l : labels) {
    const double x = ax.x(T(l.row->result) / 3600), y = ax.y(C(l.row->result));
    const double size = l.bold ? 12 : 11;
    const svg::Placed p = placer.place_near(x, y, l.row == rec ? 12 : 7.5, l.text, size, l.bold);
    if (p.far) {  // a leader from the point's edge to the label's nearest edge
      const double lx = std::clamp(x, p.box.x0, p.box.x1), ly = std::clamp(y, p.box.y0, p.box.y1);
      const double d = std::hypot(lx - x, ly - y), r0 = l.row == rec ? 11 : 6;
      if (d > r0 + 2) w.line(x + (lx - x) * r0 / d, y + (ly - y) * r0 / d, lx, ly, "#888888", 0.8);
    }
    w.text(p.x, p.baseline, l.text, "start", size,
           std::string("class=\"label\"") + (l.bold ? " font-weight=\"bold\"" : " fill=\"#333\""));
  }
  auto goal_label = [&](const std::string& text, const char* colour, std::vector<std::pair<double, double>> starts) {
    const svg::Placed p = placer.place_at(starts, text, 12);
    w.text(p.x, p.baseline, text, "start", 12, std::string("class=\"label\" fill=\"") + colour + "\"");
  };
  if (rep.goal.deadline_s) {  // beside the line, from the top down, left then right of it
    const double x = ax.x(*rep.goal.deadline_s / 3600);
    const std::string text = "deadline " + fmt("%.3g h", *rep.goal.deadline_s / 3600);
    const double wd = svg::label_width(text, 12);
    std::vector<std::pair<double, double>> starts;
    for (double y = ax.y1() + 16; y < ax.y0() - 4; y += 18) starts.insert(starts.end(), {{x - 5 - wd, y}, {x + 5, y}});
    goal_label(text, "#C00000", starts);
  }
  if (rep.goal.budget_usd) {  // along the line, from the right end leftwards, above then below it
    const double y = ax.y(*rep.goal.budget_usd);
    const std::string text = "budget " + fmt("$%.0f", *rep.goal.budget_usd);
    const double wd = svg::label_width(text, 12);
    std::vector<std::pair<double, double>> starts;
    for (double x = ax.x1() - 5 - wd; x > ax.x0(); x -= 24) starts.insert(starts.end(), {{x, y - 5}, {x, y + 15}});
    goal_label(text, "#7A0099", starts);
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
