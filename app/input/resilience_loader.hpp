// The `resilience:` section of a scenario (failures and checkpoints, docs/whatif.md) and the
// checkpoint-storage catalog (topology/catalog/storage.yaml, compiled in).
#pragma once

#include <map>
#include <string>

#include "app/input/yaml_reader.hpp"
#include "sim/study/whatifs/resilience.hpp"

namespace ddpsim::app {

// The built-in storage catalog: nvme, fsx, s3. Throws InternalError when the embedded data is broken.
std::map<std::string, sim::StorageSpec> builtin_storage();

// resilience: {node_mtbf: 2000h | gpu_mtbf: ..., checkpoint: {every: auto | 30min, storage: fsx |
// {kind: fsx, capacity: 24TiB, ...}, writers: rank0 | every_node, size: 40GiB}, restart: 10min,
// requeue: 5min, monte_carlo: {trials: 1000, seed: 1}}. Errors go to `r`.
void read_resilience(Reader& r, const YAML::Node& n, sim::ResilienceSpec& spec);

}  // namespace ddpsim::app
