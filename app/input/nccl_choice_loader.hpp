// `communication.nccl_algo`, `nccl_proto` and `tuner`: NCCL_ALGO / NCCL_PROTO and the tuner
// plugin that makes NCCL's choice (issue 18; algorithms/aws_ofi_tuner.hpp, docs/scenario.md).
#pragma once

#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// nccl_algo: Ring, Tree, NVLS, NVLSTree (sets communication.algorithm; a different
// communication.algorithm is an error); nccl_proto: LL, LL128, Simple; tuner: aws-ofi, nccl, none.
void read_nccl_choice(Reader& r, const YAML::Node& n, sim::CommunicationSpec& c);

}  // namespace ddpsim::app
