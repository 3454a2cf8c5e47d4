// A ddpsim model file (issue 19): a real nn.Module as scripts/export_model.py measured it, every
// parameter tensor in registration order grouped by module, per-module forward FLOPs and saved
// activations per sample, and the order its gradients become ready. A scenario names it with
// `model.file` (relative to the scenario). docs/scenario.md ("Model files") has the format.
#pragma once

#include <string>

#include "sim/step/model.hpp"

namespace ddpsim::app {

// Reads the model file at `path`. Throws UserError(s) located in that file (line, column and
// field) when it cannot be read or is not a valid model file.
sim::ModelSpec load_model_file(const std::string& path);

// The same from text already in hand (`name` names it in messages).
sim::ModelSpec parse_model_file(const std::string& name, const std::string& text);

}  // namespace ddpsim::app
