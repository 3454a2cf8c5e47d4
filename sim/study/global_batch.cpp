#include "sim/study/global_batch.hpp"

#include <string>

#include "core/error.hpp"

namespace ddpsim::sim {

int accum_steps_for(const TrainingSpec& t, int gpus)
{
  if (!t.global_batch) return t.grad_accum_steps;
  const std::uint64_t per_micro = static_cast<std::uint64_t>(t.batch_per_gpu) * static_cast<std::uint64_t>(gpus);
  if (per_micro == 0 || *t.global_batch % per_micro != 0 || *t.global_batch / per_micro > (1u << 20))
    throw UserError(SourceLocation{}, "training.global_batch",
                    std::to_string(*t.global_batch) + " is not a whole number (at most 1048576) of batch_per_gpu x " +
                        std::to_string(gpus) + " GPUs = " + std::to_string(per_micro));
  return static_cast<int>(*t.global_batch / per_micro);
}

const ScenarioSpec& with_accum_for(const ScenarioSpec& spec, int gpus, ScenarioSpec& storage)
{
  if (!spec.training.global_batch) return spec;
  storage = spec;
  storage.training.grad_accum_steps = accum_steps_for(spec.training, gpus);
  return storage;
}

}  // namespace ddpsim::sim
