// NCCL's protocols and the latency half of its cost model, as data (NVIDIA/nccl
// src/graph/tuning.cc, 2.30; FACTS.md "NCCL's own cost model"). NCCL predicts
//   time = latency + bytes / bandwidth
// per (algorithm, protocol) and runs the minimum. The latency is
//   baseLat[algo][proto] + nIntraSteps x hwLat[intra link][algo][proto] + nInterSteps x netLat
// where netLat is the network latency of one hop; we take it from the instance's NIC latency
// (the catalog's 20 us for p5 is the aws-ofi-nccl tuner's own network latency, FACTS.md).
// Bandwidth comes from the schedule on the topology; a protocol caps it: LL at 0.5x and LL128 at
// 0.92x of Simple (tuning.cc), because LL sends 4 bytes of flag per 4 bytes of data and LL128
// 8 bytes per 120.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

enum class Protocol { ll, ll128, simple };
std::string_view to_string(Protocol p);
std::vector<Protocol> all_protocols();
// NCCL_PROTO spelling: "LL", "LL128", "Simple". Returns false when `name` is none of them.
bool parse_protocol(std::string_view name, Protocol& out);

// The first NCCL release that has protocol `p`: LL128 arrived in v2.5.6-1 (NVIDIA/nccl commit
// 299c554d, 2019-11-19, NCCL_PROTO_LL128); LL and Simple are in every 2.x release (v2.3.5-5 has
// LL). A node running an older NCCL never uses LL128 (CollectiveModel).
Version nccl_since(Protocol p);

// Fraction of the Simple protocol's bandwidth a protocol reaches (tuning.cc).
double protocol_bandwidth_cap(Protocol p);

// NCCL's latency for `hops` of an algorithm of `family` with protocol `p` on `topo`:
// baseLat + intra x hwLat(NVLink or PCI) + inter x NIC latency (see above), the NIC latency twice
// per inter hop for Simple where NCCL flushes GPUDirect receives (InstanceSpec::nccl_net_flush:
// tuning.cc's "flush extra latency").
Time nccl_latency(NcclFamily family, Protocol p, HopCount hops, const Topology& topo);

// NCCL's two empirical refinements of its model (ncclTopoGetAlgoTime, tuning.cc 2.30):
// - trees "are not perfectly sticking to the model for medium sizes": their all-reduce bandwidth
//   is multiplied by treeCorrectionFactor[protocol][log2(bytes / 64)] (0.4 to 1.0);
// - the ring's "plateau effect": a multi-node Ring/Simple all-reduce with at least 64 bytes per
//   rank per channel has its latency multiplied by 1.9 (compute capability < 8.0) or 1.4.
double tree_correction(Protocol p, Bytes bytes);
double ring_plateau(Protocol p, CollectiveOp op, Bytes bytes, int channels, const Topology& topo, int ranks);

// The per-step latencies above as LatencyParams, for schedules that charge them per step.
LatencyParams nccl_latency_params(NcclFamily family, Protocol p, const Topology& topo);

}  // namespace ddpsim::algo
