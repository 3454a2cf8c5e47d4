#pragma once
// Strong scaling at a fixed global batch (issue 9 validation): `training.global_batch` fixes the
// samples per optimizer step across all GPUs, so each configuration accumulates
// global_batch / (batch_per_gpu x GPUs) micro-steps, as NVIDIA's BERT recipes do (65,536 sequences
// per step on 1 to 32 DGX A100 nodes). Without it, `training.grad_accum_steps` holds for every row.
#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

// Micro-steps per optimizer step on `gpus` GPUs. Throws UserError (field training.global_batch)
// when the global batch is not a whole number of batch_per_gpu x gpus.
int accum_steps_for(const TrainingSpec& t, int gpus);

// `spec` itself when no global batch is set; otherwise a copy in `storage` with the
// configuration's accumulation steps, and a reference to it.
const ScenarioSpec& with_accum_for(const ScenarioSpec& spec, int gpus, ScenarioSpec& storage);

}  // namespace ddpsim::sim
