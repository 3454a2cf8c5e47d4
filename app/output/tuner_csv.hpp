// `calibrate export --nccl-tuner`'s file: NCCL's example tuner plugin CSV (format in
// calibrate/tuner_export.hpp), every line shorter than the plugin's 256-byte buffer.
#pragma once

#include <string>

#include "calibrate/tuner_export.hpp"

namespace ddpsim::app {

std::string tuner_csv(const calibrate::TunerExport& e);

}  // namespace ddpsim::app
