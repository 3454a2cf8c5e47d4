// Rank order for rings, as NCCL's topology search would choose it: inside a node, the cycle over
// the node's GPUs whose narrowest hop is widest (on a DGX-1 / p3 hybrid cube-mesh this is a
// Hamiltonian cycle over NVLink, avoiding the PCIe/QPI path); nodes follow one another, each
// entered and left through the same local order.
#pragma once

#include <vector>

#include "topology/routing.hpp"

namespace ddpsim {

// Local GPU indices 0..gpus_per_node-1 in ring order.
std::vector<int> local_ring_order(const Topology& topo, const Router& router);
// All GPUs, node after node, each node in local_ring_order.
std::vector<VertexId> ring_order(const Topology& topo);

}  // namespace ddpsim
