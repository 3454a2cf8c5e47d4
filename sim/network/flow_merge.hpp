// Issue 21 (per-rank flow simulation at scale): SimGrid 3.32 removes each finished host-to-host
// comm from a list of all live ones (CommImpl::finish, std::list::remove: fixed upstream in 3.34 by
// a std::set), so a phase of N concurrent flows costs O(N^2): 88% of a 16,384-GPU per-rank
// iteration. Most flows of a ring or tree phase share no link with any other flow of the phase:
// such a flow runs alone at its route's bottleneck (max-min gives a lone variable the smallest
// capacity on its path), and all of them that start on the same item with the same bytes and the
// same bottleneck finish at the same instant, by the same arithmetic. One SimGrid comm then
// stands for all of them; the others become barriers completing with it.
//
// Exact only while the phase is alone on the network: the caller merges only when every job is
// on one stream (phases run one after another) and passes all the flow items of one phase.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/network/flow_graph.hpp"

namespace ddpsim::sim {

// Among `items` (one phase's flow items of `g`), turns every isolated flow that has an earlier
// isolated twin (same deps, bytes and bottleneck) into a barrier on that twin. `scratch`: a
// per-link counter, all zero on entry and on return (sized by the caller's graph as it grows).
// Returns how many items became barriers.
std::size_t merge_isolated(FlowGraph& g, const std::vector<std::uint32_t>& items, std::vector<std::uint32_t>& scratch);

}  // namespace ddpsim::sim
