// One row of a scenario's report from the iteration that priced it: the step's times and
// breakdown, the row's cost, its memory and what was observed at its node count
// (sim/study/scenario.cpp runs the configurations; this turns each into what is reported).
#pragma once

#include <string>

#include "sim/step/frameworks.hpp"
#include "sim/step/iteration.hpp"
#include "sim/step/sharded.hpp"
#include "sim/study/scenario.hpp"
#include "topology/topology.hpp"

namespace ddpsim::sim {

// One configuration of a scenario: a node count, its GPUs per node and a framework.
struct Config {
  int nodes = 1;
  int gpus_per_node = 0;
  Framework framework = Framework::pytorch_ddp;
  bool compiled = false;  // issue 12: run on compiled_scenario(spec)
};

// One row as reported (`batches`: samples per GPU per optimizer step).
ConfigResult report_row(const ScenarioSpec& spec, const Config& cfg, const Topology& topo, const IterationResult& it,
                        const GatherCost& gathers, const std::string& algorithm, const FrameworkOptions& fo, double batches);

}  // namespace ddpsim::sim
