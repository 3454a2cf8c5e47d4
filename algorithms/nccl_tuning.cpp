#include "algorithms/nccl_tuning.hpp"

#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

// tuning.cc (NCCL 2.30), microseconds, indexed [protocol] = LL, LL128, Simple.
constexpr double kBaseLat[2][3] = {{6.6, 14.0, 8.4} /* ring */, {6.8, 14.0, 8.4} /* tree */};
constexpr double kHwLatNvlink[2][3] = {{0.6, 1.9, 3.4} /* ring */, {0.6, 1.25, 4.0} /* tree */};
constexpr double kHwLatPci[2][3] = {{1.0, 2.5, 5.7} /* ring */, {1.0, 1.9, 4.0} /* tree */};

// treeCorrectionFactor, powers of two from 64 B to 256 MiB, rows LL, LL128, Simple.
constexpr double kTreeCorrection[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

std::size_t idx(Protocol p) { return static_cast<std::size_t>(p); }
// NVLS has its own latency (nccl_latency); its per-step rows fall back to the tree's.
std::size_t idx(NcclFamily f) { return f == NcclFamily::ring ? 0 : 1; }

// One intra-node step: NVLink rows when GPUs talk over NVLink/NVSwitch, PCI rows otherwise.
double intra_us(NcclFamily f, Protocol p, const Topology& topo)
{
  const bool nvlink = topo.instance().intra != IntraNodeFabric::pcie_only;
  return nvlink ? kHwLatNvlink[idx(f)][idx(p)] : kHwLatPci[idx(f)][idx(p)];
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

double protocol_bandwidth_cap(Protocol p)
{
  switch (p) {
    case Protocol::ll: return 0.5;
    case Protocol::ll128: return 0.92;
    case Protocol::simple: return 1.0;
  }
  return 1.0;
}

Time nccl_latency(NcclFamily family, Protocol p, HopCount hops, const Topology& topo)
{
  DDPSIM_CHECK(hops.intra >= 0 && hops.inter >= 0, "negative hop count");
  // tuning.cc: "Also add the flush extra latency": a Simple receive that GPUDirect RDMA put in GPU
  // memory is flushed (an RDMA read through the NIC) before the GPU reads it, where NCCL flushes.
  const InstanceSpec& inst = topo.instance();
  const int per_hop = p == Protocol::simple && inst.nccl_net_flush && inst.nic.gpudirect ? 2 : 1;
  const Time inter = inst.nic.latency * (hops.inter * per_hop);
  if (family == NcclFamily::nvls)  // tuning.cc: NVLS 25 us inside a node, 18 us as NVLSTree's intra part
    return Time::from_us(topo.nodes() > 1 ? 18.0 : 25.0) + inter;
  const double us = kBaseLat[idx(family)][idx(p)] + hops.intra * intra_us(family, p, topo);
  return Time::from_us(us) + inter;
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
