// What a user measured on their own job: one row per configuration (nodes, GPUs per node,
// framework) with one metric. `ddpsim calibrate job` fits knobs to these rows; the reports print
// them beside the predictions. Built and validated in app/input/observed_loader.cpp.
#pragma once

#include <string>

#include "sim/step/frameworks.hpp"

namespace ddpsim::sim {

enum class Metric { step_time, samples_per_s, total_time };

struct Observation {
  int nodes = 1;
  int gpus_per_node = 0;          // 0 = the scenario's (cluster.gpus_per_node or all of the instance's)
  Framework framework = Framework::pytorch_ddp;
  Metric metric = Metric::total_time;
  double value = 0;               // seconds (step_time, total_time) or samples per second
  std::string source;             // where the number comes from (paper, blog, the user's log)
  std::string where;              // file:line:col of the row, for messages
};

inline const char* to_string(Metric m)
{
  return m == Metric::step_time ? "step_time" : m == Metric::samples_per_s ? "samples_per_s" : "total";
}

}  // namespace ddpsim::sim
