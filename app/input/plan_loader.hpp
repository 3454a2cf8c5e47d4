// A plan file -> scenario variants and a goal. A plan file is a scenario file in which
// cluster.instance, cluster.nodes, training.framework, communication.algorithm,
// training.batch_per_gpu, training.precision and training.bucket_cap_mb may be lists, and
// cluster.nodes, training.batch_per_gpu and training.bucket_cap_mb ranges
// ({from: 1, to: 64, by: x2} doubles, {by: 4} adds), plus
//   goal:    {deadline: 24h, budget: 5000USD, minimize: cost | time}
//   pricing: {source: "spot, us-east-1, read 2026-11-20", per_hour: {p4d.24xlarge: 9.8USD}}
// Every variant (one value per list) is validated as a scenario; nodes stay a list in each.
#pragma once

#include <string>
#include <vector>

#include "app/input/catalog_loader.hpp"
#include "sim/study/plan.hpp"

namespace ddpsim::app {

struct PlanInput {
  std::vector<sim::PlanVariant> variants;
  sim::Goal goal;
  std::size_t configurations = 0;  // rows: variants x node counts
};

PlanInput load_plan(const std::string& path, const Catalog& catalog);
PlanInput parse_plan(const std::string& name, const std::string& text, const Catalog& catalog);

// "5000USD", "5000 USD", "$5000" or a plain number, in US dollars; nullopt when malformed.
std::optional<double> parse_usd(std::string text);

}  // namespace ddpsim::app
