#include "app/formats.hpp"

#include "app/plan_report.hpp"
#include "app/report.hpp"

namespace ddpsim::app {

std::vector<std::string> report_formats() { return {"table", "json", "csv"}; }

std::string render_scenario(const sim::ScenarioReport& report, const std::string& format)
{
  if (format == "json") return scenario_json(report);
  if (format == "csv") return scenario_csv(report);
  return scenario_table(report);
}

std::string render_plan(const sim::PlanReport& report, const std::string& format)
{
  if (format == "json") return plan_json(report);
  if (format == "csv") return plan_csv(report);
  return plan_table(report);
}

}  // namespace ddpsim::app
