// Rank order for rings, as NCCL's topology search would choose it: inside a node, the cycle over
// the node's GPUs whose narrowest hop is widest (on a DGX-1 / p3 hybrid cube-mesh this is a
// Hamiltonian cycle over NVLink, avoiding the PCIe/QPI path); nodes follow one another, each
// entered and left through the same local order. Across nodes the order is NIC-aware, as NCCL's
// search: each channel (ring_channels) leaves and enters a node through GPUs next to its NIC
// where that keeps the ring's narrowest hop as wide, so a one-NIC node's ring does not cross the
// CPU interconnect to reach the NIC when a PCIe path exists.
#pragma once

#include <vector>

#include "topology/routing.hpp"

namespace ddpsim {

// Rings across nodes: one channel per NIC (at most one per GPU); one inside a node. The ring
// algorithm rotates channel c's local order by c x g / channels, so channel c leaves a node at
// local position c x g / channels - 1 and enters the next at c x g / channels.
int ring_channels(const Topology& topo);
// Local GPU indices 0..gpus_per_node-1 in ring order.
std::vector<int> local_ring_order(const Topology& topo, const Router& router);
// All GPUs, node after node, each node in local_ring_order.
std::vector<VertexId> ring_order(const Topology& topo);

// Rings inside ONE node of an NVLink mesh (DGX-1 / p3 hybrid cube-mesh), as NCCL's topology
// search builds them: each ring is a directed Hamiltonian cycle over direct NVLink hops, and each
// NVLink brick in each direction carries one ring (NCCL's channels: on a DGX-1V, 6 bricks per GPU
// give 6 rings each way round, hence nccl-tests' ~130 GB/s busbw where one ring gets ~40).
// As many rings as the bricks allow (depth first over the directed Hamiltonian NVLink cycles,
// GPU 0 first, in lexicographic order; repeats allowed; the first best pick is kept, so the result
// is deterministic). Local GPU indices; empty when the topology is not one node of a mesh, uses
// fewer than 3 GPUs, or has no Hamiltonian NVLink cycle.
std::vector<std::vector<int>> mesh_rings(const Topology& topo);

}  // namespace ddpsim
