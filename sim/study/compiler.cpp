#include "sim/study/compiler.hpp"

#include "core/error.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

ScenarioSpec compiled_scenario(const ScenarioSpec& spec)
{
  DDPSIM_CHECK(spec.compiler.has_value(), "compiled_scenario without a compiler");
  const CompilerSpec& c = *spec.compiler;
  DDPSIM_CHECK(c.compute_scale > 0, "compiler compute_scale must be positive");
  ScenarioSpec s = spec;
  s.compute.speedup /= c.compute_scale;  // ComputeParams divides every layer's time by speedup
  if (c.batch_per_gpu) s.training.batch_per_gpu = *c.batch_per_gpu;
  if (c.sync_after_backward) {
    // One bucket holding every gradient: it is ready only when backward ends, so nothing overlaps.
    const Bytes all{spec.model.parameter_count() * 8 + 1};
    s.training.bucket_cap = s.training.first_bucket_cap = all;
  }
  s.training.compare.clear();
  return s;
}

}  // namespace ddpsim::sim
