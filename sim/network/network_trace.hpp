// What the network backends record on a Timeline (observers only; no I/O): each collective phase
// as a span on node 0's track of every link class its node-0 flows cross ("link nic", "link
// nvswitch", ...), so a trace shows which part of the machine each phase occupies. Node 0 stands
// for every node of a homogeneous job.
#pragma once

#include "sim/network/network.hpp"
#include "sim/engine/timeline.hpp"

namespace ddpsim::sim {

void record_phase(Timeline& timeline, const Topology& topo, const Router& router, const CollectiveJob& job,
                  const algo::Phase& phase, Time start, Time end);

}  // namespace ddpsim::sim
