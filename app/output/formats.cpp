#include "app/output/formats.hpp"

#include "app/output/html_report.hpp"
#include "app/output/plan_report.hpp"
#include "app/output/report.hpp"

namespace ddpsim::app {

std::vector<std::string> report_formats() { return {"table", "json", "csv", "html"}; }

std::string render_scenario(const sim::ScenarioReport& report, const std::string& format)
{
  if (format == "json") return scenario_json(report);
  if (format == "csv") return scenario_csv(report);
  if (format == "html") return scenario_html(report);
  return scenario_table(report);
}

std::string render_plan(const sim::PlanReport& report, const std::string& format)
{
  if (format == "json") return plan_json(report);
  if (format == "csv") return plan_csv(report);
  if (format == "html") return plan_html(report);
  return plan_table(report);
}

}  // namespace ddpsim::app
