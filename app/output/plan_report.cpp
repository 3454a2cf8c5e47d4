#include "app/output/plan_report.hpp"
#include "app/output/text_format.hpp"

#include <map>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/output/report.hpp"

namespace ddpsim::app {
namespace {

std::string config_name(const sim::PlanReport& rep, const sim::PlanRow& row)
{
  const sim::ConfigResult& r = row.result;
  std::string s = r.instance + " x" + std::to_string(r.nodes) + " " + r.framework;
  const std::string& label = rep.labels.at(row.variant);
  return label.empty() ? s : s + " (" + label + ")";
}

std::string goal_line(const sim::Goal& g)
{
  std::string s = "goal: minimize " + std::string(g.minimize == sim::Minimize::cost ? "cost" : "time");
  if (g.deadline_s) s += ", deadline " + fmt("%.2f h", *g.deadline_s / 3600);
  if (g.budget_usd) s += ", budget " + fmt("$%.2f", *g.budget_usd);
  if (g.at_p90) s += ", confidence 0.9 (every row judged by the p90 of its interval)";
  return s;
}

// The rows on the frontier, fastest first.
std::vector<const sim::PlanRow*> frontier(const sim::PlanReport& rep)
{
  std::vector<const sim::PlanRow*> out;
  for (const sim::PlanRow& r : rep.rows)
    if (r.pareto) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [&rep](const sim::PlanRow* a, const sim::PlanRow* b) {
    return sim::judged_time_s(a->result, rep.goal) < sim::judged_time_s(b->result, rep.goal);
  });
  return out;
}

}  // namespace

std::string plan_table(const sim::PlanReport& rep)
{
  std::string out = "plan " + rep.name + ": model " + rep.model + " (" +
                    fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) + " M parameters), " +
                    std::to_string(rep.rows.size()) + " configurations\n" + goal_line(rep.goal) + "\n";
  if (!rep.calibration.empty())
    out += "calibrated: job profile " + rep.calibration + " (calibration:) applied to " +
           std::to_string(std::count(rep.calibrated.begin(), rep.calibrated.end(), true)) + " of " +
           std::to_string(rep.labels.size()) +
           " variant(s) where it transfers; uncalibrated step times in --format json\n";
  out += "\n";
  if (rep.recommended) {
    const sim::PlanRow& r = rep.rows[*rep.recommended];
    out += "recommended: " + config_name(rep, r) + "\n  why: " + rep.why + "\n\n";
  } else {
    // Issue 20: say which exclusions left nothing (no price, memory, deadline, budget), by count.
    std::map<std::string, int> why;
    for (const sim::PlanRow& r : rep.rows) ++why[r.excluded.substr(0, r.excluded.find(':'))];
    std::string reasons;
    for (const auto& [reason, n] : why) reasons += (reasons.empty() ? "" : ", ") + std::to_string(n) + " " + reason;
    out += "recommended: none: every configuration is excluded (" + reasons + "; see excluded)\n\n";
  }
  out += "time/cost Pareto frontier (configurations that fit; fastest first):\n";
  const bool p90 = rep.goal.at_p90;  // the columns show what the goal judged
  out += "  " + pad("configuration", 48, false) + "  " + pad(p90 ? "total p90" : "total", 10, true) + "  " +
         pad(p90 ? "cost p90" : "cost", 12, true) + "  " + pad("eff", 5, true) + "  " + pad("bound", 13, false) + "  goal\n";
  for (const sim::PlanRow* r : frontier(rep))
    out += "  " + pad(config_name(rep, *r), 48, false) + "  " +
           pad(fmt("%.2f h", sim::judged_time_s(r->result, rep.goal) / 3600), 10, true) + "  " +
           pad(fmt("$%.2f", sim::judged_cost_usd(r->result, rep.goal)), 12, true) + "  " +
           pad(fmt("%.0f%%", r->result.scaling_efficiency * 100), 5, true) + "  " + pad(r->result.bound, 13, false) + "  " +
           (r->excluded.empty() ? "meets" : r->excluded) + "\n";
  std::size_t excluded = 0;
  for (const sim::PlanRow& r : rep.rows) excluded += r.excluded.empty() ? 0 : 1;
  out += "\nexcluded (" + std::to_string(excluded) + " of " + std::to_string(rep.rows.size()) + "):\n";
  for (const sim::PlanRow& r : rep.rows)
    if (!r.excluded.empty()) out += "  " + pad(config_name(rep, r), 48, false) + "  " + r.excluded + "\n";
  out += "\nprices:\n";
  for (const std::string& s : rep.price_sources) out += "  " + s + "\n";
  return out;
}

std::string plan_json(const sim::PlanReport& rep)
{
  nlohmann::ordered_json j;
  j["plan"] = rep.name;
  j["model"] = rep.model;
  j["parameters"] = rep.parameters;
  j["calibrated"] = !rep.calibration.empty();  // through the twin (sim/study/twin.hpp)
  j["calibration"] = rep.calibration.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(rep.calibration);
  nlohmann::ordered_json g;
  g["minimize"] = rep.goal.minimize == sim::Minimize::cost ? "cost" : "time";
  g["deadline_s"] = rep.goal.deadline_s ? nlohmann::ordered_json(*rep.goal.deadline_s) : nlohmann::ordered_json();
  g["budget_usd"] = rep.goal.budget_usd ? nlohmann::ordered_json(*rep.goal.budget_usd) : nlohmann::ordered_json();
  if (rep.goal.at_p90) g["confidence"] = 0.9;  // absent: the central value, as before goal.confidence
  j["goal"] = g;
  j["recommended"] = rep.recommended ? nlohmann::ordered_json(*rep.recommended) : nlohmann::ordered_json();
  j["why"] = rep.why;
  j["price_sources"] = rep.price_sources;
  j["rows"] = nlohmann::ordered_json::array();
  for (const sim::PlanRow& row : rep.rows) {
    const sim::ConfigResult& r = row.result;
    Json o;  // the result's fields as the scenario JSON has them (result_fields.hpp), and the plan's own
    put_result_fields(o, r, {"instance", "nodes", "gpus", "framework", "algorithm"});
    o["variant"] = rep.labels.at(row.variant);
    put_result_fields(o, r, {"step_time_s"});
    const bool calibrated = row.variant < rep.calibrated.size() && rep.calibrated[row.variant] && r.uncalibrated_step_s;
    o["calibrated"] = calibrated;
    if (calibrated) put_result_fields(o, r, {"uncalibrated_step_time_s"});
    put_result_fields(o, r, {"total_time_s", "total_time_s_p10", "total_time_s_p90", "cost_usd", "cost_usd_p10", "cost_usd_p90",
                             "price_usd_per_hour", "scaling_efficiency", "scaling_efficiency_p10", "scaling_efficiency_p90", "bound",
                             "fits", "memory"});
    o["pareto"] = row.pareto;
    o["excluded"] = row.excluded;
    j["rows"].push_back(std::move(o));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // names from the user's file may hold invalid UTF-8
}

std::string plan_csv(const sim::PlanReport& rep)
{
  const bool p90 = rep.goal.at_p90;  // the judged values as two more columns (absent at the central value)
  std::string out = "instance,nodes,gpus,framework,algorithm,variant,step_time_s,total_time_s,cost_usd,"
                    "scaling_efficiency,bound,fits,memory_gib,pareto,recommended,excluded";
  out += p90 ? ",total_time_s_p90,cost_usd_p90\n" : "\n";
  auto g = [](double v) { return fmt("%.9g", v); };
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const sim::PlanRow& row = rep.rows[i];
    const sim::ConfigResult& r = row.result;
    out += r.instance + "," + std::to_string(r.nodes) + "," + std::to_string(r.gpus) + "," + r.framework + "," +
           r.algorithm + "," + csv_quote(rep.labels.at(row.variant)) + "," + g(r.step_time_s) + "," +
           (r.fits ? g(r.total_time_s) : "") + "," + (r.fits ? g(r.cost_usd) : "") + "," + g(r.scaling_efficiency) + "," +
           r.bound + "," + (r.fits ? "true" : "false") + "," +
           g(static_cast<double>(r.memory.total().n) / static_cast<double>(GiB)) + "," + (row.pareto ? "true" : "false") +
           "," + (rep.recommended == i ? "true" : "false") + "," + csv_quote(row.excluded);
    if (p90)
      out += "," + (r.fits ? g(sim::judged_time_s(r, rep.goal)) : "") + "," + (r.fits ? g(sim::judged_cost_usd(r, rep.goal)) : "");
    out += "\n";
  }
  return out;
}

}  // namespace ddpsim::app
