// `cluster.degraded`: links below their rate or down (what-if; docs/whatif.md, topology/degraded.cpp).
#pragma once

#include "app/input/yaml_reader.hpp"
#include "topology/topology.hpp"

namespace ddpsim::app {

// A list of {link: nic, node: 3, rate: 0.5 [, nic: 1]} | {link: nvlink, node: 0, gpus: [0, 1],
// lanes_down: 1} | {link: spine_uplink, leaf: 1, down: 1 [, rate: 0.5]}. Checked against the
// instance (GPU and NIC indices, NVLink pairs) and the fabric (leaf/spine for spine_uplink).
void read_degraded(Reader& r, const YAML::Node& n, const InstanceSpec& instance, FabricSpec& fabric);

}  // namespace ddpsim::app
