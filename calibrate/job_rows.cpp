// The simulator's side of a job fit: the observed rows' predicted metrics under a scenario, and
// a scenario with fitted knob values applied (calibrate/job_fit.hpp).
#include <algorithm>
#include <cmath>

#include "calibrate/job_fit.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

double metric_of(const sim::ConfigResult& r, sim::Metric m)
{
  switch (m) {
    case sim::Metric::step_time: return r.step_time_s;
    case sim::Metric::samples_per_s: return r.samples_per_s;
    case sim::Metric::total_time: return r.total_time_s;
  }
  return 0;
}

}  // namespace

std::vector<double> predict_rows(const sim::ScenarioSpec& spec, const std::vector<sim::Observation>& rows,
                                 const sim::RunOptions& run)
{
  // Simulate only the configurations the rows need.
  sim::ScenarioSpec s = spec;
  auto needed = [&](int nodes) {
    return std::any_of(rows.begin(), rows.end(), [&](const sim::Observation& o) { return o.nodes == nodes; });
  };
  s.cluster.nodes.clear();
  s.cluster.gpus_per_node_each.clear();
  for (std::size_t i = 0; i < spec.cluster.nodes.size(); ++i)
    if (needed(spec.cluster.nodes[i])) {
      s.cluster.nodes.push_back(spec.cluster.nodes[i]);
      if (!spec.cluster.gpus_per_node_each.empty()) s.cluster.gpus_per_node_each.push_back(spec.cluster.gpus_per_node_each[i]);
    }
  s.training.compare.clear();
  for (sim::Framework f : spec.training.compare)
    if (std::any_of(rows.begin(), rows.end(), [&](const sim::Observation& o) { return o.framework == f; }))
      s.training.compare.push_back(f);
  sim::RunOptions quiet = run;
  quiet.timeline = nullptr;
  const sim::ScenarioReport rep = sim::run_scenario(s, quiet);
  std::vector<double> out;
  for (const sim::Observation& o : rows) {
    const auto it = std::find_if(rep.results.begin(), rep.results.end(), [&](const sim::ConfigResult& r) {
      return r.nodes == o.nodes && r.gpus == o.nodes * o.gpus_per_node && r.framework == to_string(o.framework);
    });
    DDPSIM_CHECK(it != rep.results.end(), "observed row " + o.where + " matches no simulated configuration");
    out.push_back(metric_of(*it, o.metric));
  }
  return out;
}

sim::ScenarioSpec apply_fit(sim::ScenarioSpec spec, const std::vector<std::string>& names, const std::vector<double>& x)
{
  for (std::size_t k = 0; k < names.size(); ++k) {
    // Keep the search in a physical neighbourhood: e^-30..e^30 times one second or one.
    sim::apply(names[k], spec, std::exp(std::clamp(x[k], -30.0, 30.0)));
  }
  return spec;
}

}  // namespace ddpsim::calibrate
