#include "algorithms/nccl_tuning.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "topology/topology.hpp"
#include "topology/transport.hpp"

namespace ddpsim::algo {
namespace {

// tuning.cc (NCCL 2.30), microseconds, indexed [protocol] = LL, LL128, Simple.
constexpr double kBaseLat[2][3] = {{6.6, 14.0, 8.4} /* ring */, {6.8, 14.0, 8.4} /* tree */};
constexpr double kHwLatNvlink[2][3] = {{0.6, 1.9, 3.4} /* ring */, {0.6, 1.25, 4.0} /* tree */};
constexpr double kHwLatPci[2][3] = {{1.0, 2.5, 5.7} /* ring */, {1.0, 1.9, 4.0} /* tree */};
constexpr double kHwLatNet[2][3] = {{2.7, 4.0, 14.0} /* ring */, {5.0, 8.5, 14.0} /* tree */};
constexpr double kHwLatNetNvlsTree = 14.0;
// The releases that changed how NCCL's model counts the net plugin's latency (NVIDIA/nccl
// src/graph/tuning.cc at the tags): v2.12.7-1 takes it in place of hwLat, v2.18.1-1 adds it.
constexpr Version kNcclReadsNetLatency{2, 12, 7};
constexpr Version kNcclAddsNetLatency{2, 18, 1};
// NCCL's estimate charged a tree's Simple step 28 us on every link (NVLink, PCI, network) before
// v2.18.3-1 and again from v2.19.1-1 to v2.22: its stand-in for the chunk a Simple tree forwards
// whole ("waiting for proper chunk modeling"); v2.18.3 and v2.23.4 onward have 4 / 6-4 / 14.
constexpr Version kNcclTreeSimple4us{2, 18, 3};
constexpr Version kNcclTreeSimple28usAgain{2, 19, 1};
constexpr Version kNcclTreeSimple4usAgain{2, 23, 4};
constexpr double kTreeSimpleChunkUs = 28.0;
// "Inter-node rings still have to launch nsteps * net overhead" (tuning.cc from v2.18.1-1,
// getNetOverhead): a ring step across nodes costs at least 1 us on Intel hosts, 2 on AMD (other
// CPUs 1), three times that with Simple. And the ring's network steps for an all-reduce: 2 x nodes
// before v2.23.4-1, 2 x (nodes - 1) from it (the boundaries a pass crosses).
constexpr Version kNcclNetOverhead{2, 18, 1};
constexpr Version kNcclRingInterSteps{2, 23, 4};

// A Simple step across nodes is handed over by a completion that NCCL's proxy reads from the
// NIC (LL and LL128 receivers poll flags in GPU memory instead). aws-ofi-nccl's own cost model of
// EFA charges it on top of the network's latency, for Simple only: "With EFA, we expect a ~2usec
// cost in the device and ~1usec cost to write that completion up to the host stack"
// (include/nccl_ofi_param.h TUNER_NET_COMP_OVERHEAD = 3, used by src/tuner/nccl_ofi_model.c from
// 2023-12-19, eacd69c3, to 2025-03-04, 6cf81537). Priced on every EFA hop through libfabric.
constexpr double kEfaSimpleCompletionUs = 3.0;

// baseLat, the fixed part of NCCL's estimate, as its releases have it (tuning.cc at the tags),
// [family][protocol] with ring first: ring LL128 3.6 before v2.7.3-1 and 10.0 from it; v2.18.1-1
// raised the LL and LL128 entries (ring 6.6 / 14.0, tree 6.8 / 14.0); a tree's Simple entry is 0
// until v2.23.4-1, which made it 8.4 (kBaseLat, today's table, is what the price takes).
constexpr Version kNcclBaseLatLL128{2, 7, 3};
constexpr Version kNcclBaseLat2181{2, 18, 1};
constexpr Version kNcclBaseLatTreeSimple{2, 23, 4};

bool tree_simple_28us(const Version& nccl)
{
  return nccl < kNcclTreeSimple4us || (nccl >= kNcclTreeSimple28usAgain && nccl < kNcclTreeSimple4usAgain);
}

// treeCorrectionFactor, powers of two from 64 B to 256 MiB, rows LL, LL128, Simple.
constexpr double kTreeCorrection[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

std::size_t idx(Protocol p) { return static_cast<std::size_t>(p); }
// NVLS has its own latency (nccl_latency); its per-step rows fall back to the tree's.
std::size_t idx(NcclFamily f) { return f == NcclFamily::ring ? 0 : 1; }

// NCCL's estimate's baseLat for its release (the table and its eras above).
double estimated_base_lat(NcclFamily family, Protocol p, const Version& nccl)
{
  const bool tree = family == NcclFamily::tree;
  if (nccl >= kNcclBaseLatTreeSimple) return kBaseLat[idx(family)][idx(p)];
  if (p == Protocol::simple) return tree ? 0.0 : 8.4;
  if (nccl >= kNcclBaseLat2181) return kBaseLat[idx(family)][idx(p)];
  if (tree) return 4.4;
  return p == Protocol::ll128 && nccl >= kNcclBaseLatLL128 ? 10.0 : 3.6;
}

// One intra-node step: NVLink rows when GPUs talk over NVLink/NVSwitch, PCI rows otherwise.
double intra_us(NcclFamily f, Protocol p, const Topology& topo)
{
  const bool nvlink = topo.instance().intra != IntraNodeFabric::pcie_only;
  return nvlink ? kHwLatNvlink[idx(f)][idx(p)] : kHwLatPci[idx(f)][idx(p)];
}

// Per-channel bandwidth ceilings of NCCL's model, GB/s of bus bandwidth, rows Volta, Ampere,
// Hopper, Blackwell (compute capability 7x, 8x, 9x, 10x+), columns 1 node, 2 nodes, more
// (tuning.cc 2.18-2.27; Blackwell's row from 2.27).
constexpr double kPerChMaxRingLL128[4][3] = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {73.4, 73.4, 73.4}};
constexpr double kPerChMaxTreeLL128[4][3] = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {73.4, 73.4, 58.0}};
constexpr double kPerChMaxTree[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {77.4, 82.8, 72.0}};
// LL's ceiling for the whole collective (llMaxBws): one node by GPU (Volta, Ampere, Hopper before
// NCCL 2.21.5, Hopper from 2.21.5, Blackwell); several nodes by the hosts' CPU (Intel, AMD).
constexpr double kLlMaxOneNode[5] = {39.0, 87.7, 87.7, 141.0, 282.0};
constexpr double kLlMaxNodes[2][2] = {{39.0, 20.4} /* Intel: 2 nodes, more */, {22.5, 19.0} /* AMD */};

std::size_t gpu_row(const Topology& topo)
{
  const int cc = topo.instance().gpu.compute_capability;
  return cc >= 100 ? 3 : cc >= 90 ? 2 : cc >= 80 ? 1 : 0;
}

}  // namespace

std::string_view to_string(Protocol p)
{
  switch (p) {
    case Protocol::ll: return "LL";
    case Protocol::ll128: return "LL128";
    case Protocol::simple: return "Simple";
  }
  return "?";
}

std::vector<Protocol> all_protocols() { return {Protocol::ll, Protocol::ll128, Protocol::simple}; }

bool parse_protocol(std::string_view name, Protocol& out)
{
  for (Protocol p : all_protocols())
    if (to_string(p) == name) {
      out = p;
      return true;
    }
  return false;
}

Version nccl_since(Protocol p) { return p == Protocol::ll128 ? Version{2, 5, 6} : Version{2, 0, 0}; }

NcclBandwidth nccl_bandwidth(NcclFamily family, Protocol p, CollectiveOp op, const Topology& topo, int channels)
{
  const InstanceSpec& inst = topo.instance();
  const int nodes = topo.nodes();
  const std::size_t col = nodes <= 2 ? static_cast<std::size_t>(nodes - 1) : 2, row = gpu_row(topo);
  // Hopper's one-node LL ceiling rose from 87.7 to 141 GB/s in NCCL 2.21.5 (commit ab2b89c4).
  const std::size_t one_node = row < 2 ? row : row == 3 ? 4 : inst.nccl < Version{2, 21, 5} ? 2 : 3;
  const double ll_max = nodes == 1 ? kLlMaxOneNode[one_node] : kLlMaxNodes[inst.cpu_vendor == CpuVendor::amd ? 1 : 0][nodes <= 2 ? 0 : 1];
  const double ch = std::max(1, channels);
  NcclBandwidth out;
  if (family == NcclFamily::nvls) return out;
  if (family == NcclFamily::ring) {
    if (p == Protocol::ll) {
      out.factor = nodes > 1 || op == CollectiveOp::all_reduce ? 1.0 / 4.0 : 1.0 / 3.0;
      out.cap_busbw = ll_max;
    } else if (p == Protocol::ll128) {
      out.factor = topo.gpus_per_node() < 2 ? 0.7 : 0.92;
      out.cap_busbw = ch * kPerChMaxRingLL128[row][col];
    }
    return out;
  }
  const double tree_cap = ch * kPerChMaxTree[row][col];
  out.cap_busbw = tree_cap;
  if (p == Protocol::ll) {
    out.factor = 1.0 / 3.8;
    out.cap_busbw = std::min(tree_cap / 3.8, ll_max);
  } else if (p == Protocol::ll128) {
    const double f = nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0;
    out.factor = f;
    out.cap_busbw = std::min(tree_cap * f, ch * kPerChMaxTreeLL128[row][col]);
  }
  return out;
}

Time nccl_latency(NcclFamily family, Protocol p, HopCount hops, const Topology& topo)
{
  DDPSIM_CHECK(hops.intra >= 0 && hops.inter >= 0, "negative hop count");
  // tuning.cc: "Also add the flush extra latency": a Simple receive that GPUDirect RDMA put in GPU
  // memory is flushed (an RDMA read through the NIC) before the GPU reads it, where NCCL flushes.
  const InstanceSpec& inst = topo.instance();
  int per_hop = p == Protocol::simple && inst.nccl_net_flush && inst.nic.gpudirect ? 2 : 1;
  // libfabric before 1.15 (topology/transport.hpp efa_gpu_read_protocol): a send from GPU memory
  // (LL128, Simple) waits for the receiver's RDMA read, request and response; an LL arrival for a
  // GPU buffer for a local read, priced as the flush above.
  if (efa_read_protocol_priced(inst)) per_hop += p == Protocol::ll ? 1 : 2;
  Time inter = inst.nic.latency * (hops.inter * per_hop);
  if (p == Protocol::simple && inst.nic.kind == "efa" && !inst.nic.nccl_sockets_on_efa)
    inter += Time::from_us(kEfaSimpleCompletionUs * hops.inter);
  if (family == NcclFamily::nvls)  // tuning.cc: NVLS 25 us inside a node, 18 us as NVLSTree's intra part
    return Time::from_us(topo.nodes() > 1 ? 18.0 : 25.0) + inter;
  const double us = kBaseLat[idx(family)][idx(p)] + hops.intra * intra_us(family, p, topo);
  return Time::from_us(us) + inter;
}

Time nccl_estimated_latency(NcclFamily family, Protocol p, HopCount hops, const Topology& topo)
{
  DDPSIM_CHECK(hops.intra >= 0 && hops.inter >= 0, "negative hop count");
  const InstanceSpec& inst = topo.instance();
  const bool chunk28 = family == NcclFamily::tree && p == Protocol::simple && tree_simple_28us(inst.nccl);
  const double hw = family == NcclFamily::nvls ? kHwLatNetNvlsTree : chunk28 ? kTreeSimpleChunkUs : kHwLatNet[idx(family)][idx(p)];
  const double reported = inst.nccl_net_latency.us();
  double inter = hw;
  if (inst.nccl >= kNcclAddsNetLatency)
    inter = hw + reported * (p == Protocol::simple ? 2 : 1);
  else if (inst.nccl >= kNcclReadsNetLatency && reported > 0)
    inter = reported;
  if (family == NcclFamily::nvls) return Time::from_us((topo.nodes() > 1 ? 18.0 : 25.0) + hops.inter * inter);
  double intra = chunk28 ? kTreeSimpleChunkUs : intra_us(family, p, topo);
  if (family == NcclFamily::ring && topo.nodes() > 1 && inst.nccl >= kNcclNetOverhead)
    intra = std::max(intra, (inst.cpu_vendor == CpuVendor::amd ? 2.0 : 1.0) * (p == Protocol::simple ? 3 : 1));
  return Time::from_us(estimated_base_lat(family, p, inst.nccl) + hops.intra * intra + hops.inter * inter);
}

HopCount nccl_estimated_hops(NcclFamily family, CollectiveOp op, int ranks, int nodes, HopCount schedule, const Version& nccl)
{
  if (family != NcclFamily::ring) return schedule;
  const bool one_pass = op == CollectiveOp::reduce_scatter || op == CollectiveOp::all_gather;
  const int steps = op == CollectiveOp::all_reduce ? 2 * (ranks - 1) : one_pass ? ranks - 1 : ranks;
  const int all_reduce = nccl >= kNcclRingInterSteps ? 2 * (nodes - 1) : 2 * nodes;
  const int inter = nodes <= 1 ? 0 : op == CollectiveOp::all_reduce ? all_reduce : one_pass ? nodes - 1 : nodes;
  return HopCount{std::max(0, steps - inter), inter};
}

double tree_correction(Protocol p, Bytes bytes)
{
  std::uint64_t units = bytes.n >> 6;  // log2i(nBytes >> 6): floor, -1 below 64 bytes
  if (units == 0) return 1.0;
  int log = 0;
  while (units >>= 1) ++log;
  return log < 23 ? kTreeCorrection[idx(p)][log] : 1.0;
}

double ring_plateau(Protocol p, CollectiveOp op, Bytes bytes, int channels, const Topology& topo, int ranks)
{
  if (p != Protocol::simple || op != CollectiveOp::all_reduce || topo.nodes() <= 1) return 1.0;
  const std::uint64_t per = bytes.n / static_cast<std::uint64_t>(std::max(1, channels) * std::max(1, ranks));
  if (per < 64) return 1.0;
  const int cc = topo.instance().gpu.compute_capability;
  return cc > 0 && cc < 80 ? 1.9 : 1.4;
}

LatencyParams nccl_latency_params(NcclFamily family, Protocol p, const Topology& topo)
{
  LatencyParams l;
  l.base = Time::from_us(kBaseLat[idx(family)][idx(p)]);
  l.intra_step = Time::from_us(intra_us(family, p, topo));
  l.inter_step = Time{0};  // the route's own latency already carries the NIC latency
  return l;
}

}  // namespace ddpsim::algo
