// NCCL's protocols and the latency half of its cost model, as data (NVIDIA/nccl
// src/graph/tuning.cc, 2.30; FACTS.md "NCCL's own cost model"). NCCL predicts
//   time = latency + bytes / bandwidth
// per (algorithm, protocol) and runs the minimum. The latency is
//   baseLat[algo][proto] + nIntraSteps x hwLat[intra link][algo][proto] + nInterSteps x netLat
// where netLat is the network latency of one hop; we take it from the instance's NIC latency
// (the catalog's 20 us for p5 is the aws-ofi-nccl tuner's own network latency, FACTS.md).
// Bandwidth comes from the schedule on the topology, refined per protocol as tuning.cc refines it
// (nccl_bandwidth below): LL's kernels reach a quarter of the link (a ring) and at most a fixed
// rate, LL128 sends 8 bytes of flag per 120 of data, and one channel of a tree or an LL128 ring
// moves at most NVIDIA's measured per-channel rate.
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

// NCCL's bandwidth refinements of one (algorithm family, protocol) on `topo` with `channels`
// channels (ncclTopoTuneModel, tuning.cc; its tables as of 2.18.3, used for every release): the
// schedule's bus bandwidth times `factor`, then at most `cap_busbw` GB/s of bus bandwidth (0: none).
// - ring LL: x1/4 for an all-reduce or across nodes (else x1/3), at most llMaxBw (one node: by GPU
//   generation; across nodes: by the hosts' CPU maker, InstanceSpec::cpu_vendor);
// - ring LL128: x0.92 (x0.7 with one GPU per node), at most channels x perChMaxRingLL128Bw;
// - tree (ddpsim's tree family: tree, hierarchical, SHARP): at most channels x perChMaxTreeBw;
//   LL x1/3.8 and at most llMaxBw; LL128 x7/9 in one node, x120/128 across nodes, and at most
//   channels x perChMaxTreeLL128Bw;
// - NVLS and Simple rings: unchanged.
// Left out on purpose: tuning.cc's x0.92 on every tree, NCCL's whole-tree discount, which the
// treeCorrectionFactor below already carries in the price (docs/model.md "NCCL's protocols").
struct NcclBandwidth {
  double factor = 1;
  double cap_busbw = 0;
};
NcclBandwidth nccl_bandwidth(NcclFamily family, Protocol p, CollectiveOp op, const Topology& topo, int channels);

// NCCL's latency for `hops` of an algorithm of `family` with protocol `p` on `topo`:
// baseLat + intra x hwLat(NVLink or PCI) + inter x NIC latency (see above), the NIC latency twice
// per inter hop for Simple where NCCL flushes GPUDirect receives (InstanceSpec::nccl_net_flush:
// tuning.cc's "flush extra latency"), and two more for LL128 and Simple, one for LL, where libfabric
// before 1.15 reaches GPU memory over EFA (InstanceSpec::efa_gpu_read_protocol), and 3 us more per
// inter hop for a Simple step's completion over EFA (aws-ofi-nccl's model). NCCL's estimate below
// knows none of these, so they change the price of NCCL's choice, not the choice.
Time nccl_latency(NcclFamily family, Protocol p, HopCount hops, const Topology& topo);

// NCCL's own estimate of that latency, the one it chooses by (tuning.cc), where the price above takes
// the network's physical latency: a network hop costs NCCL's hwLat[NET][family][protocol] (ring
// 2.7 / 4.0 / 14, tree 5.0 / 8.5 / 14, NVLS+Tree 14 us for LL / LL128 / Simple) and the latency
// the net plugin reports (InstanceSpec::nccl_net_latency: aws-ofi-nccl's 75 or 150 us on EFA), by
// NCCL release: before 2.12.7 hwLat alone; 2.12.7-2.17 the plugin's latency where it reports one,
// else hwLat; from 2.18.1 hwLat + the plugin's, twice for Simple ("Also add the flush extra
// latency", charged whether or not the node flushes). A tree's Simple step is 28 us on every link
// (NVLink, PCI, network hwLat) before NCCL 2.18.3 and from 2.19.1 to 2.22: NCCL's stand-in for the
// whole chunk a Simple tree forwards at each hop; 4 us (NVLink) from 2.23.4, as in the price.
// From 2.18.1 a ring's step across nodes costs at least NCCL's net overhead (1 us on Intel hosts,
// 2 on AMD; x 3 with Simple: getNetOverhead).
Time nccl_estimated_latency(NcclFamily family, Protocol p, HopCount hops, const Topology& topo);
// The hops NCCL's estimate counts (tuning.cc nsteps, nInterSteps): a ring all-reduce takes
// 2 x nodes of its 2(ranks-1) steps as network steps before NCCL 2.23.4, 2 x (nodes-1) from it
// (a reduce-scatter or all-gather nodes-1 of ranks-1; a broadcast nodes of ranks), where the
// schedule's own count (`schedule`, the price's) is the 2(nodes-1) boundaries a pass crosses;
// trees and NVLS keep `schedule`.
HopCount nccl_estimated_hops(NcclFamily family, CollectiveOp op, int ranks, int nodes, HopCount schedule, const Version& nccl);

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
