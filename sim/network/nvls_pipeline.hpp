// NCCL's NVLS all-reduce inside one node is a pipeline of three warp groups, each a stage every
// chunk passes in turn (src/device/all_reduce.h, RunWorkElement<..., NCCL_ALGO_NVLS,
// NCCL_PROTO_SIMPLE>, the `oneNode` branch; the same three groups from v2.17.1-1 to v2.30):
//   scatter  copies the chunk of each head from the user's buffer into that head's NVLS buffer,
//   reduce   the head's multimem load-reduce through the switch and multimem store to every GPU,
//   gather   copies the reduced chunks from the GPU's NVLS buffer into the user's output.
// A loop iteration moves one chunk per channel and head (nChannels x nHeads x chunkSize bytes), so
// c whole iterations through three stages take (c + 2) iteration times: the bandwidth term plus
// two first iterations, x (c + 2) / c.
// NCCL sizes the chunk down for mid sizes (computeCollChunkInfo, src/enqueue.cc), which keeps c
// small there: 2 iterations at 8 MiB on 8 H100s, where the pipeline runs at half its rate. NCCL's
// own model has no such term; like the Simple tree's fill (tree_pipeline.hpp) it is in the price,
// not in the estimate NCCL chooses by.
#pragma once

#include "core/units.hpp"
#include "topology/topology.hpp"

namespace ddpsim::sim {

// Iterations of NCCL's single-node NVLS all-reduce loop for `bytes` on `topo` (0 for no bytes).
std::uint64_t nvls_iterations(Bytes bytes, const Topology& topo);

// The price's bandwidth term of a single-node NVLS all-reduce whose steady bandwidth term is
// `bandwidth_us`: the three-stage pipeline above, filled and drained.
double nvls_pipelined_us(double bandwidth_us, Bytes bytes, const Topology& topo);

}  // namespace ddpsim::sim
