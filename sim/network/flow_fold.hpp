// Symmetry folding for the flow backend: whether a set of collectives repeats across the
// topology's symmetry periods, so that simulating period 0 stands for all of them.
#pragma once

#include <optional>
#include <vector>

#include "core/units.hpp"
#include "sim/network/network.hpp"
#include "topology/topology.hpp"

namespace ddpsim::sim {

// Per job, per phase, per flow: the bytes the folded simulation gives the flow (only period-0
// flows are used). Empty when the schedule is not symmetric.
using FoldedBytes = std::vector<std::vector<std::vector<Bytes>>>;

// Symmetric when every symmetry period sends the flows period 0 sends, shifted by whole periods,
// with the same bytes up to the remainder of an uneven split (at most one byte per step, or 1e-6
// of the flow). Each period-0 flow is then given the largest bytes of its copies, so where nothing
// is shared the folded phase ends exactly when the slowest copy would.
std::optional<FoldedBytes> symmetric(const Topology& topo, const std::vector<CollectiveJob>& jobs);

}  // namespace ddpsim::sim
