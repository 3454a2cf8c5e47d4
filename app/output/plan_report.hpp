// Reporters for `ddpsim plan`: they only format a finished sim::PlanReport.
#pragma once

#include <string>

#include "sim/study/plan.hpp"

namespace ddpsim::app {

std::string plan_table(const sim::PlanReport& report);
std::string plan_json(const sim::PlanReport& report);
std::string plan_csv(const sim::PlanReport& report);

}  // namespace ddpsim::app
