// `model.trace: FILE` (issue 19): a PyTorch profiler (Kineto) trace of one rank of a real job,
// turned into the model the simulator runs (sim/step/traced.hpp). The steps are taken apart
// by calibrate/trace_steps.hpp; here they are combined: every time is the median over the
// ProfilerSteps (per layer, when all steps ran the same operators; else the median step's), the
// buckets are the median step's (they are the same in every steady-state step), the measured
// step is the median ProfilerStep span, and "other" is what the parts leave of it.
#pragma once

#include <map>
#include <string>

#include "calibrate/trace_events.hpp"
#include "sim/step/traced.hpp"

namespace ddpsim::calibrate {

// The model of a parsed trace (app/input/kineto_events.hpp reads one from its file). `gpus`: the
// catalog's GPUs, to match deviceProperties' name; `gpu_name`: a catalog GPU name that overrides the
// match ("" for none).
sim::TracedModel import_kineto(const KinetoTrace& trace, const std::map<std::string, GpuSpec>& gpus,
                               const std::string& gpu_name = "");

// The catalog GPU a device name (e.g. "NVIDIA A100-PG509-200", 40 GiB) stands for: the catalog's
// name itself, else the catalog GPU of the same family ("A100", the part before the first '-')
// with the closest memory. "" when none.
std::string match_gpu(const std::string& device, std::uint64_t memory, const std::map<std::string, GpuSpec>& gpus);

}  // namespace ddpsim::calibrate
