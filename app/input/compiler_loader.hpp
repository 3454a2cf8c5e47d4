// `compiler:`: compiled rows beside the scenario's own (what-if; docs/whatif.md).
#pragma once

#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// {name: sagemaker-training-compiler, compute_scale: 0.5, memory_scale: 0.5, nodes: [1],
// batch_per_gpu: 64, sync: after_backward | buckets}. Needs a PyTorch framework (pytorch-ddp or
// lightning): the compiler runs PyTorch models through XLA.
void read_compiler(Reader& r, const YAML::Node& n, const sim::TrainingSpec& training, sim::CompilerSpec& c);

}  // namespace ddpsim::app
