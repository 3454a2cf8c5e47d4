// Shared by the job-fit tests: observed rows made by the simulator itself.
#pragma once

#include <string>
#include <vector>

#include "app/input/scenario_loader.hpp"
#include "calibrate/job_fit.hpp"
#include "support.hpp"

namespace ddpsim::test {

// The seed's 7-layer MLP with Lightning on 1..8 ml.p3.16xlarge nodes (`nodes`, e.g. "1, 2, 4").
inline sim::ScenarioSpec lightning_mlp(const std::string& nodes, int batch_per_gpu)
{
  return app::parse_scenario("t.yaml",
                             "name: t\ncluster: {instance: ml.p3.16xlarge, nodes: [" + nodes +
                                 "]}\nmodel: {preset: mlp, widths: [256, 512, 512, 512, 256, 128, 64, 1]}\n"
                                 "training: {framework: lightning, batch_per_gpu: " + std::to_string(batch_per_gpu) +
                                 ", samples: 100000000}\n",
                             catalog());
}

// `s` with Lightning rows (8 GPUs per node) observed on `truth` at these node counts.
inline sim::ScenarioSpec observed(const sim::ScenarioSpec& truth, sim::ScenarioSpec s, const std::vector<int>& nodes)
{
  for (int n : nodes) {
    sim::Observation o;
    o.nodes = n;
    o.gpus_per_node = 8;
    o.framework = sim::Framework::lightning;
    o.where = "t.yaml:" + std::to_string(n) + ":1";
    s.observations.push_back(o);
  }
  const std::vector<double> v = calibrate::predict_rows(truth, s.observations, {});
  for (std::size_t i = 0; i < v.size(); ++i) s.observations[i].value = v[i];
  return s;
}

}  // namespace ddpsim::test
