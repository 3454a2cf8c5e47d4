// The one place a report becomes text in a chosen --format, shared by `ddpsim scenario`,
// `ddpsim plan` and `ddpsim merge` (issue 11), so a merged report is the serial one byte for
// byte. A new format (e.g. html) is one name in the list and one branch in each function.
#pragma once

#include <string>
#include <vector>

#include "sim/study/plan.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// The --format values scenario, plan and merge accept.
std::vector<std::string> report_formats();

std::string render_scenario(const sim::ScenarioReport& report, const std::string& format);
std::string render_plan(const sim::PlanReport& report, const std::string& format);

}  // namespace ddpsim::app
