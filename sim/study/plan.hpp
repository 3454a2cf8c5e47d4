// `ddpsim plan`: a search over scenario variants (instance x framework x algorithm x batch x
// precision x bucket cap, each over its node counts) against a goal: a deadline, a budget and
// what to minimize. Pure: the variants come built (app/input/plan_loader.cpp expands lists and ranges).
// Each row is a candidate or excluded with the reason; the time/cost Pareto frontier is over
// the rows that fit in memory; the recommendation is the best candidate for the goal.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

enum class Minimize { cost, time };

struct Goal {
  std::optional<double> deadline_s;
  std::optional<double> budget_usd;
  Minimize minimize = Minimize::cost;
  // goal.confidence 0.9: every row is judged by the upper end of its p10-p90 interval (time and
  // cost), so that a recommendation meets the deadline and the budget 9 times in 10 by the model's
  // own stated uncertainty; false (0.5, the default): by its central value.
  bool at_p90 = false;
};

// A row's total time and cost as the goal judges them: the central value, or the p90 of its band
// when the goal asks for it and the band is set (a zero-width interval has none).
double judged_time_s(const ConfigResult& r, const Goal& g);
double judged_cost_usd(const ConfigResult& r, const Goal& g);

struct PlanVariant {
  ScenarioSpec spec;
  std::string label;  // what distinguishes it, e.g. "batch 8, bf16, bucket 25 MiB"
  bool priced = true;  // false: no known hourly price (SageMaker ml.* without `pricing:`)
};

struct PlanRow {
  ConfigResult result;
  std::size_t variant = 0;  // index into the variants
  std::string excluded;     // why it is not a candidate ("" = candidate)
  bool pareto = false;      // on the time/cost frontier of the rows that fit
};

struct PlanReport {
  std::string name;
  std::string model;
  std::uint64_t parameters = 0;
  Goal goal;
  std::vector<std::string> labels;  // per variant
  std::vector<PlanRow> rows;        // variants in order, each over its node counts
  std::optional<std::size_t> recommended;  // index into rows
  std::string why;                  // the recommendation's reasons, one sentence
  std::vector<std::string> price_sources;  // distinct, in order of appearance
  std::string calibration;          // the job profile applied (sim/study/twin.hpp); "" for none
  std::vector<bool> calibrated;     // per variant: some of it transferred and was applied
};

// Called after each variant finished: (variants done, variants to do).
using PlanProgress = std::function<void(std::size_t, std::size_t)>;

// Runs every variant's configurations through the twin (sim/study/twin.hpp: a `calibration:` is
// applied, the uncalibrated step kept beside; intervals only with `intervals`, the twin's default
// samples, as a goal at p90 needs) (variant i's rows are its node counts in order); `jobs` > 1 runs
// variants in up to that many child processes, with results identical to serial.
std::vector<std::vector<ConfigResult>> evaluate_variants(const std::vector<PlanVariant>& variants, int jobs,
                                                         const PlanProgress& progress = {}, bool intervals = false);

// What decide() needs of the variants besides their results; `ddpsim merge` carries it in the
// shards' header (app/output/shards.hpp), so merging needs no input file.
struct VariantInfo {
  std::string label;
  std::string instance;
  std::string price_source;
  bool priced = true;
  std::string calibration;  // the job profile applied to the variant (file name); "" when none or none of it transfers
};
struct PlanFrame {
  std::string name;
  std::string model;
  std::uint64_t parameters = 0;
  std::vector<VariantInfo> variants;
};
PlanFrame plan_frame(const std::vector<PlanVariant>& variants);

// Applies the goal to evaluated rows: exclusions, Pareto frontier, recommendation.
PlanReport decide(const PlanFrame& frame, const std::vector<std::vector<ConfigResult>>& results, const Goal& goal);
inline PlanReport decide(const std::vector<PlanVariant>& variants,
                         const std::vector<std::vector<ConfigResult>>& results, const Goal& goal)
{
  return decide(plan_frame(variants), results, goal);
}

}  // namespace ddpsim::sim
