// Issue 19's scenario keys: a model from a model file (`model.file`), `model.attention`, and
// training.precision / comm_hook / activation_checkpointing (sim/step/precision.hpp).
#pragma once

#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// model.file (a model file from scripts/export_model.py, relative to the scenario; instead of
// preset or layers) and model.attention (flash | eager). Errors inside the model file are
// located in that file.
void read_model_source(Reader& r, const YAML::Node& model, sim::ModelSpec& m);

// training.precision (fp32 | tf32 | fp16 | bf16 | amp-fp16 | amp-bf16), training.comm_hook
// (none | fp16 | bf16 | fp16_compress, the last fp16's old name) and
// training.activation_checkpointing.
void read_precision(Reader& r, const YAML::Node& training, sim::TrainingSpec& t);

}  // namespace ddpsim::app
