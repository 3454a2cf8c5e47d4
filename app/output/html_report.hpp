// `--format html`: one self-contained page per report (inline CSS and SVG, no network fetches, a
// Content-Security-Policy that forbids any), from the same finished reports the JSON reporters
// take. Deterministic: the same report gives the same bytes (no dates, no random ids).
#pragma once

#include <string>

#include "sim/study/multijob.hpp"
#include "sim/study/plan.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// Scaling curve, step breakdown, bucket timeline and the results table of a scenario.
std::string scenario_html(const sim::ScenarioReport& report);

// Recommendation, time-vs-cost scatter with the Pareto frontier and the goal's lines, step
// breakdown and bucket timeline of the frontier, scaling per variant, and every row.
std::string plan_html(const sim::PlanReport& report);

// Several jobs on one fabric (issue 12): each job's step alone and together (breakdown and
// bucket timeline side by side) and the slowdown table.
std::string multijob_html(const sim::MultiJobReport& report);

}  // namespace ddpsim::app
