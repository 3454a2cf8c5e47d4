// `training.framework` as users write it: a framework name ("pytorch-ddp", "smddp", ...) or the
// `distribution` map of a SageMaker PyTorch estimator, pasted as is (FACTS.md):
//   {pytorchddp: {enabled: true}}                       -> pytorch-ddp (NCCL)
//   {torch_distributed: {enabled: true}}                -> pytorch-ddp (torchrun; NCCL)
//   {smdistributed: {dataparallel: {enabled: true}}}    -> smddp
//   {mpi: {enabled: true}}                              -> horovod (SageMaker's Horovod launcher)
#pragma once

#include <optional>

#include "app/input/yaml_reader.hpp"
#include "sim/step/frameworks.hpp"

namespace ddpsim::app {

// Reads the node at `field`; records an error in `r` and returns nullopt when it names nothing known.
std::optional<sim::Framework> read_framework(Reader& r, const YAML::Node& n, const std::string& field);

}  // namespace ddpsim::app
