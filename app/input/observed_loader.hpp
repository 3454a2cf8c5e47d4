// The scenario's `observed:` section: what the user measured on their own job.
//
// Two forms (docs/calibration.md), which may be combined:
//   observed:
//     source: AWS ML blog 2022-08-18            # default source of every row
//     minutes: {1: 99, 2: 55}                   # total minutes per node count (the first form)
//     rows:                                     # one configuration per row, one metric each
//       - {nodes: 4, total: 27min}
//       - {nodes: 2, step_time: 14.2ms, framework: lightning, gpus_per_node: 8}
//       - {nodes: 8, samples_per_s: 51000, instance: ml.p3.16xlarge, source: my run 2024-05-01}
// A row's configuration (instance, nodes, gpus_per_node, framework) must be one the scenario
// simulates; values must be positive; a configuration and metric may appear once. Every problem
// is reported at its file:line:col.
#pragma once

#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// Reads `observed:` into s.observations (and s.observed_minutes for the report's columns).
// Needs s.cluster and s.training already read.
void read_observed(Reader& r, const YAML::Node& n, sim::ScenarioSpec& s);

}  // namespace ddpsim::app
