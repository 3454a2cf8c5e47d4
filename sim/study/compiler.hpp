// What-if: a training compiler (e.g. SageMaker Training Compiler) on some configurations. The
// compiled rows run the same scenario with compute time x compute_scale (on the per-layer times,
// so the overlap with communication is kept), optionally a larger batch per GPU (what the lower
// memory use allows), and, by default, the gradient all-reduce after backward instead of in
// overlapping buckets (torch_xla's xm.optimizer_step -> reduce_gradients all-reduces every
// gradient at once). Defaults and sources: docs/whatif.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ddpsim::sim {

struct ScenarioSpec;

struct CompilerSpec {
  std::string name = "sagemaker-training-compiler";
  double compute_scale = 0.5;      // compute time x this: AWS's "up to 50%" (a best case)
  double memory_scale = 0.5;       // memory per sample x this: bert-base-uncased 12 -> 24 (AWS docs)
  std::vector<int> nodes;          // node counts to add compiled rows for (empty: the first)
  std::optional<int> batch_per_gpu;  // batch of the compiled rows (default: the scenario's)
  bool sync_after_backward = true;   // XLA's one all-reduce after backward (false: DDP buckets)
};

// The scenario as a compiled run sees it.
ScenarioSpec compiled_scenario(const ScenarioSpec& spec);

}  // namespace ddpsim::sim
