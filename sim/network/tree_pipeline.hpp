// NCCL's Simple protocol forwards a tree's data a chunk at a time: a rank sends a chunk on only
// once all of it has arrived (the sender posts its tail after the whole slice; a tree runs
// ProtoSimple<1, 1>, one step per slice and chunk: src/device/all_reduce.h runTreeUpDown and
// runTreeSplit, v2.20.3-1). So a Simple tree is a pipeline of chunks through every hop of the
// tree, up and down: its time is the bandwidth term (the chunks through the slowest hop) plus one
// chunk through each other hop, the fill. NCCL's own model has no such term (it charges 28 us per
// hop as "some chunk latency, waiting for proper chunk modeling", tuning.cc, and scales trees by
// treeCorrectionFactor); the price takes the larger of the two. LL and LL128 forward each line as
// it arrives (their flags travel with the data): no fill.
#pragma once

#include "algorithms/algorithm.hpp"
#include "core/units.hpp"
#include "topology/topology.hpp"

namespace ddpsim::sim {

// The fill of a Simple tree over `hops`, where `raw_us` is the bandwidth term without
// treeCorrectionFactor (tree_pipeline.cpp says how each hop is timed).
double simple_tree_fill_us(double raw_us, Bytes bytes, int channels, algo::HopCount hops, const Topology& topo);

}  // namespace ddpsim::sim
