// The scenario's `model.trace: FILE` and `model.trace_gpu: NAME` (issue 19): the model from a
// PyTorch profiler trace (app/input/kineto_events.hpp, calibrate/trace_model.hpp), the path relative to the scenario file.
#pragma once

#include "app/input/catalog_loader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// Reads model.trace into `m` when the key is there; returns whether it was.
bool read_model_trace(Reader& r, const YAML::Node& model, const Catalog& catalog, sim::ModelSpec& m);

// After the whole scenario is read: the precision of the traced gradients unless
// training.precision was given, and the import's notes.
void finish_traced(const YAML::Node& root, sim::ScenarioSpec& s);

}  // namespace ddpsim::app
