#include "app/input/compiler_loader.hpp"
#include "app/input/scenario_keys.hpp"

namespace ddpsim::app {

void read_compiler(Reader& r, const YAML::Node& n, const sim::TrainingSpec& training, sim::CompilerSpec& c)
{
  const std::string path = "compiler";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("compiler"));
  if (auto v = r.choice(n, path, "name", false, {"sagemaker-training-compiler", "custom"})) c.name = *v;
  if (auto v = r.number(n, path, "compute_scale", false, 0.01, 10)) c.compute_scale = *v;
  if (auto v = r.number(n, path, "memory_scale", false, 0.01, 10)) c.memory_scale = *v;
  if (auto v = r.integer(n, path, "batch_per_gpu", false, 1, 1 << 24)) c.batch_per_gpu = static_cast<int>(*v);
  if (auto v = r.choice(n, path, "sync", false, {"after_backward", "buckets"})) c.sync_after_backward = *v == "after_backward";
  if (YAML::Node nodes = n["nodes"]; nodes.IsDefined()) {
    if (!nodes.IsSequence()) r.error(nodes, "compiler.nodes", "expected a list of node counts, e.g. [1]");
    else
      for (const YAML::Node& e : nodes)
        if (auto v = r.as_integer(e, "compiler.nodes", 1, 1 << 20)) c.nodes.push_back(static_cast<int>(*v));
  }
  if (!sim::traits(training.framework).compiler)
    r.error(n, "compiler", "needs training.framework pytorch-ddp or lightning (the compiler runs PyTorch through XLA)");
}

}  // namespace ddpsim::app
