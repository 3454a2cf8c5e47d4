#include "app/output/html_report.hpp"
#include "app/output/scenario_columns.hpp"

#include <algorithm>
#include <set>

#include "app/output/html_charts.hpp"
#include "app/output/multijob_report.hpp"
#include "app/output/report.hpp"
#include "app/output/svg.hpp"
#include "app/output/text_format.hpp"
#include "app/whatifs/whatif_view.hpp"

namespace ddpsim::app {
namespace {

using svg::escape;

std::string human_time(double s)
{
  if (s >= 3600) return fmt("%.2f h", s / 3600);
  if (s >= 60) return fmt("%.1f min", s / 60);
  if (s >= 1) return fmt("%.2f s", s);
  if (s >= 1e-3) return fmt("%.2f ms", s * 1e3);
  return fmt("%.1f us", s * 1e6);
}

// The page around the sections. The Content-Security-Policy forbids every fetch (the page needs
// none); the one inline script only marks the page as loaded, which the Chromium test checks.
std::string page(const std::string& title, const std::string& body)
{
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         escape(title) +
         "</title>\n<style>\n"
         "body{font-family:'DejaVu Sans','Liberation Sans',Arial,sans-serif;color:#222;margin:24px auto;max-width:1180px;"
         "padding:0 16px;line-height:1.4}\n"
         "h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 6px;border-bottom:1px solid #ddd}\n"
         ".meta{color:#555;margin:2px 0}.note{color:#555;font-size:13px;max-width:900px}\n"
         ".rec{background:#eef6ee;border-left:4px solid #009E73;padding:8px 12px;margin:12px 0}\n"
         "svg{display:block;margin:8px 0;font-family:inherit;max-width:100%;height:auto}\n"
         "table{border-collapse:collapse;font-size:13px;margin:8px 0}"
         "th,td{border-bottom:1px solid #e3e3e3;padding:3px 8px;text-align:right;white-space:nowrap}"
         "th{background:#f4f4f4}td.l,th.l{text-align:left;white-space:normal}tr.bad td{color:#999}\n"
         "</style>\n</head>\n<body>\n" +
         body +
         "<p class=\"note\">Drawn by ddpsim. Hover over a point or bar for its values.</p>\n"
         "<script>document.body.setAttribute(\"data-ddpsim-loaded\", \"yes\");</script>\n</body>\n</html>\n";
}

std::string section(const std::string& heading, const std::string& content, const std::string& note = "")
{
  return "<h2>" + escape(heading) + "</h2>\n" + content + (note.empty() ? "" : "<p class=\"note\">" + escape(note) + "</p>\n");
}

std::string row(const std::vector<std::string>& cells, const std::set<std::size_t>& left, bool header = false,
                const std::string& cls = "")
{
  std::string out = cls.empty() ? "<tr>" : "<tr class=\"" + cls + "\">";
  const char* tag = header ? "th" : "td";
  for (std::size_t i = 0; i < cells.size(); ++i)
    out += std::string("<") + tag + (left.count(i) ? " class=\"l\"" : "") + ">" + escape(cells[i]) + "</" + tag + ">";
  return out + "</tr>\n";
}

std::string name(const sim::ConfigResult& r)
{
  return r.instance + " x" + std::to_string(r.nodes) + " " + r.framework + (r.compiler.empty() ? "" : "+compiler");
}

const char* const kBreakdownNote =
    "step = compute + exposed communication + loader wait + optimizer/overhead, per GPU; communication "
    "hidden behind backward is not part of the step (hover a bar for it).";
const char* const kTimelineNote =
    "Each tick is the moment backward produced a bucket's gradients; each bar is its reduction as the "
    "collective model priced it (JSON: buckets[].ready_s, start_s, time_s).";

// The what-ifs, when the scenario asks for them: those of app/whatifs/ (issue 17: failures and
// checkpoints, stragglers and jitter, ...) from the columns each declares.
std::string whatif_sections(const sim::ScenarioReport& rep)
{
  std::string out;
  std::vector<const WhatIfView*> views = whatif_views();
  std::stable_sort(views.begin(), views.end(), [](const WhatIfView* a, const WhatIfView* b) { return a->html_order < b->html_order; });
  for (const WhatIfView* v : views) {
    std::string rows;
    std::set<std::size_t> left{0};
    for (std::size_t i = 0; i < v->html.size(); ++i)
      if (v->html[i].show == Show::text) left.insert(i + 1);
    for (const sim::ConfigResult& r : rep.results)
      if (const sim::WhatIfResult* x = r.whatif(v->name)) {
        std::vector<std::string> cells{name(r)};
        for (const WhatIfColumn& c : v->html) cells.push_back(whatif_cell(*x, c, human_time));
        rows += row(cells, left, false, v->html_grey_unfit && !r.fits ? "bad" : "");
      }
    std::vector<std::string> heads{"configuration"};
    for (const WhatIfColumn& c : v->html) heads.push_back(c.head);
    if (!rows.empty()) out += section(v->html_heading, "<table>\n" + row(heads, left, true) + rows + "</table>\n", v->html_note);
  }
  return out;
}

}  // namespace

std::string scenario_html(const sim::ScenarioReport& rep)
{
  // GPUs per node varying within the scenario (1-8 GPUs of one node): label and scale by GPUs.
  bool by_gpus = false;
  for (const sim::ConfigResult& r : rep.results)
    by_gpus = by_gpus || r.gpus * rep.results.front().nodes != rep.results.front().gpus * r.nodes;
  std::vector<Labelled> rows;
  bool bands = false, observed = false;
  for (const sim::ConfigResult& r : rep.results) {
    rows.push_back({&r, name(r) + (by_gpus ? ", " + std::to_string(r.gpus) + (r.gpus == 1 ? " GPU" : " GPUs") : ""),
                    r.instance + " " + r.framework + (r.compiler.empty() ? "" : "+compiler")});
    bands = bands || r.speedup_band.set;
    observed = observed || r.observed_minutes.has_value();
  }
  std::string body = "<h1>Scenario " + escape(rep.scenario) + "</h1>\n";
  if (!rep.description.empty()) body += "<p class=\"meta\">" + escape(rep.description) + "</p>\n";
  body += "<p class=\"meta\">model " + escape(rep.model) + " (" + fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) +
          " M parameters), network engine " + escape(rep.engine) + "</p>\n";
  if (!rows.empty()) {
    body += section("Scaling", scaling_chart(rows, by_gpus),
                    std::string("Speedup against each series' first row, as the table computes it") +
                        (bands ? "; bars are the [p10, p90] interval of the sampled inputs" : "") +
                        (observed ? "; hollow markers are the observed speedups" : "") + ".");
    body += section("Step time", breakdown_chart(rows), kBreakdownNote);
    body += section("Communication timeline", timeline_chart(rows), kTimelineNote);
  }
  // Issue 20: the terminal table's columns, every one (--wide), errors and fit roles included.
  const ScenarioColumns cols = scenario_columns(rep, true);
  std::vector<std::string> heads;
  std::set<std::size_t> lefts;
  for (std::size_t i = 0; i < cols.columns.size(); ++i) {
    heads.push_back(cols.columns[i].head);
    if (cols.columns[i].left) lefts.insert(i);
  }
  std::string table = "<table>\n" + row(heads, lefts, true);
  for (std::size_t k = 0; k < rep.results.size(); ++k) {
    std::vector<std::string> cells;
    for (const TableColumn& c : cols.columns) cells.push_back(c.cells[k]);
    table += row(cells, lefts, false, rep.results[k].fits ? "" : "bad");
  }
  table += "</table>\n";
  std::string notes;
  for (const std::string& n : rep.notes) notes += "<p class=\"note\">" + escape(n) + "</p>\n";
  if (!rep.profile_source.empty()) notes += "<p class=\"note\">network profile: " + escape(rep.profile_source) + "</p>\n";
  if (!rep.price_source.empty()) notes += "<p class=\"note\">prices: " + escape(rep.price_source) + "</p>\n";
  for (const sim::ConfigResult& r : rep.results)
    for (const std::string& w : r.warnings) notes += "<p class=\"note\">warning: " + escape(name(r) + ": " + w) + "</p>\n";
  body += section("Results", table + notes);
  body += whatif_sections(rep);
  return page("ddpsim scenario " + rep.scenario, body);
}

std::string plan_html(const sim::PlanReport& rep)
{
  std::vector<std::string> labels;
  for (const sim::PlanRow& r : rep.rows) {
    const std::string& v = rep.labels.at(r.variant);
    labels.push_back(name(r.result) + (v.empty() ? "" : " (" + v + ")"));
  }
  std::string body = "<h1>Plan " + escape(rep.name) + "</h1>\n";
  body += "<p class=\"meta\">model " + escape(rep.model) + " (" + fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) +
          " M parameters), " + std::to_string(rep.rows.size()) + " configurations</p>\n";
  std::string goal = "minimize " + std::string(rep.goal.minimize == sim::Minimize::cost ? "cost" : "time");
  if (rep.goal.deadline_s) goal += ", deadline " + fmt("%.2f h", *rep.goal.deadline_s / 3600);
  if (rep.goal.budget_usd) goal += ", budget " + fmt("$%.2f", *rep.goal.budget_usd);
  body += "<p class=\"meta\">goal: " + escape(goal) + "</p>\n";
  if (rep.recommended)
    body += "<div class=\"rec\"><b>recommended: " + escape(labels[*rep.recommended]) + "</b><br>why: " + escape(rep.why) +
            "</div>\n";
  else
    body += "<div class=\"rec\"><b>recommended: none</b>: no configuration fits in memory and meets the goal</div>\n";
  body += section("Time and cost", cost_time_chart(rep, labels),
                  "Configurations that do not fit in memory have no time or cost and are not drawn; see the table.");

  // The configurations worth a closer look: the frontier (fastest first) and the recommendation.
  std::vector<std::size_t> picked;
  for (std::size_t i = 0; i < rep.rows.size(); ++i)
    if (rep.rows[i].pareto || rep.recommended == i) picked.push_back(i);
  std::stable_sort(picked.begin(), picked.end(), [&](std::size_t a, std::size_t b) {
    return rep.rows[a].result.total_time_s < rep.rows[b].result.total_time_s;
  });
  std::vector<Labelled> close;
  for (std::size_t i : picked) close.push_back({&rep.rows[i].result, labels[i], ""});
  // Scaling: every fitting row of the variants (at most the palette's 7) that reach the frontier.
  std::vector<std::size_t> variants;
  for (std::size_t i : picked)
    if (std::find(variants.begin(), variants.end(), rep.rows[i].variant) == variants.end() && variants.size() < 7)
      variants.push_back(rep.rows[i].variant);
  std::vector<Labelled> scaling;
  for (std::size_t v : variants)
    for (const sim::PlanRow& r : rep.rows)
      if (r.variant == v && r.result.fits) {
        const std::string& l = rep.labels.at(v);
        scaling.push_back({&r.result, "", r.result.instance + " " + r.result.framework + (l.empty() ? "" : " (" + l + ")")});
      }
  if (!scaling.empty())
    body += section("Scaling of the variants on the frontier", scaling_chart(scaling),
                    "Speedup against each variant's smallest node count (as in the JSON); only rows that fit are drawn.");
  if (!close.empty()) {
    body += section("Step time of the frontier", breakdown_chart(close), kBreakdownNote);
    body += section("Communication timeline of the frontier", timeline_chart(close), kTimelineNote);
  }
  std::string table = "<table>\n" + row({"configuration", "total", "cost", "eff", "bound", "memory/GPU", "Pareto", "goal"},
                                        {0, 4, 5, 7}, true);
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const sim::PlanRow& pr = rep.rows[i];
    const sim::ConfigResult& r = pr.result;
    table += row({labels[i] + (rep.recommended == i ? " (recommended)" : ""), r.fits ? human_time(r.total_time_s) : "-",
                  r.fits ? fmt("$%.2f", r.cost_usd) : "-", fmt("%.0f%%", r.scaling_efficiency * 100), r.bound,
                  fit_note(r), pr.pareto ? "yes" : "", pr.excluded.empty() ? "meets" : pr.excluded},
                 {0, 4, 5, 7}, false, pr.excluded.empty() ? "" : "bad");
  }
  table += "</table>\n";
  for (const std::string& s : rep.price_sources) table += "<p class=\"note\">prices: " + escape(s) + "</p>\n";
  body += section("All configurations", table);
  return page("ddpsim plan " + rep.name, body);
}

std::string multijob_html(const sim::MultiJobReport& rep)
{
  std::vector<Labelled> rows;
  for (const sim::JobResult& j : rep.jobs) {
    rows.push_back({&j.alone, j.name + " alone", j.name});
    rows.push_back({&j.together, j.name + " together", j.name});
  }
  std::string body = "<h1>Shared fabric " + escape(rep.scenario) + "</h1>\n";
  if (!rep.description.empty()) body += "<p class=\"meta\">" + escape(rep.description) + "</p>\n";
  body += "<p class=\"meta\">" + escape(rep.instance) + " x " + std::to_string(rep.nodes) + " nodes (" +
          std::to_string(rep.gpus) + " GPUs), fabric " + escape(rep.fabric) + ", placement " + escape(rep.placement) +
          ", network engine " + escape(rep.engine) + "</p>\n";
  if (!rows.empty()) {
    body += section("Step time: each job alone and together", breakdown_chart(rows), kBreakdownNote);
    body += section("Communication timeline", timeline_chart(rows), kTimelineNote);
  }
  std::string table = "<table>\n" + row({"job", "nodes", "GPUs", "framework", "model", "step alone", "step together",
                                          "slowdown", "comm alone", "comm together", "exposed together"},
                                         {0, 1, 3, 4}, true);
  for (const sim::JobResult& j : rep.jobs)
    table += row({j.name, node_list(j.nodes), std::to_string(j.together.gpus), j.together.framework, j.model,
                  human_time(j.alone.step_time_s), human_time(j.together.step_time_s), fmt("%.3fx", j.slowdown),
                  human_time(j.alone.comm_s), human_time(j.together.comm_s), human_time(j.together.exposed_comm_s)},
                 {0, 1, 3, 4});
  table += "</table>\n";
  body += section("Jobs", table,
                  "slowdown = step together / step alone; each job alone still runs on the shared fabric, with no other "
                  "job's traffic (docs/whatif.md).");
  return page("ddpsim shared fabric " + rep.scenario, body);
}

}  // namespace ddpsim::app
