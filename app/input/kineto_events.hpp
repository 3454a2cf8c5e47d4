// A PyTorch profiler (Kineto) trace read from its JSON: the events of calibrate/trace_events.hpp,
// checked and typed. A malformed event is a UserError naming the file and `traceEvents[i].field`.
// import_trace reads a trace file all the way to the model the simulator runs.
#pragma once

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "calibrate/trace_events.hpp"
#include "sim/step/traced.hpp"

namespace ddpsim::app {

calibrate::KinetoTrace parse_kineto(const nlohmann::json& doc, const std::string& file);

// Reads and imports FILE (plain or gzip JSON; calibrate/trace_model.hpp). `gpus`: the catalog's
// GPUs, to match deviceProperties' name; `gpu_name`: a catalog GPU name that overrides the match.
std::shared_ptr<const sim::TracedModel> import_trace(const std::string& file, const std::map<std::string, GpuSpec>& gpus,
                                                     const std::string& gpu_name = "");

}  // namespace ddpsim::app
