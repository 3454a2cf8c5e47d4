// The plots of the HTML reports, each one inline <svg> drawn from finished results (no
// simulation here). A configuration comes with the label the page shows for it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/study/plan.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

struct Labelled {
  const sim::ConfigResult* result = nullptr;
  std::string label;   // e.g. "p4d.24xlarge x8 pytorch-ddp"
  std::string series;  // rows with the same series form one scaling curve
};

// Speedup vs nodes (log2 axis), one curve per series, [p10, p90] bars where sampled, observed
// speedups (against the series' first observed row) as hollow markers, linear scaling dashed.
// `by_gpus`: GPUs on the x axis instead (scenarios that vary GPUs per node, e.g. 1-8 GPUs of one node).
std::string scaling_chart(const std::vector<Labelled>& rows, bool by_gpus = false);

// One horizontal bar per configuration: compute + exposed communication + loader wait +
// optimizer/overhead = the step (sim/study/scenario.hpp).
std::string breakdown_chart(const std::vector<Labelled>& rows);

// One lane per configuration on the iteration's time axis: when each gradient bucket became
// ready and when its reduction ran (overlapping reductions get their own sub-lanes).
std::string timeline_chart(const std::vector<Labelled>& rows);

// Plans: total time (h) vs cost ($) of every configuration that fits, both log axes, colour by
// instance and marker by framework; the Pareto frontier, the deadline and the budget as lines.
std::string cost_time_chart(const sim::PlanReport& rep, const std::vector<std::string>& row_labels);

}  // namespace ddpsim::app
