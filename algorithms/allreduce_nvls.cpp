#include "algorithms/allreduce_nvls.hpp"

#include "algorithms/common.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

using Send = DeviceSend;

// A drawing of port and NIC load (allreduce_nvls.hpp), not of the data's path: the offsets say
// where each drawn flow's bytes start, and the data-level check does not apply
// (docs/algorithms.md, "Data-level check").
std::vector<Send> plan(const Request& req)
{
  const auto nodes = ranks_by_node(req);
  const std::size_t n = nodes.size(), g = nodes.front().size();
  for (const auto& node : nodes) DDPSIM_CHECK(node.size() == g, "nvls needs the same GPU count per node");
  std::vector<Send> out;
  // Per GPU and direction NVLS moves (1 + 1/g) S over its NVLink: the switch's multimem reduce
  // reads every shard of the GPU's buffer (S out) and returns its reduced shard (S/g in); the
  // multicast store sends that shard (S/g out) and delivers all g reduced shards (S in). Drawn as
  // a ring of that many bytes, slowed by NVLS's own efficiency (catalog efficiency.nvls).
  const double nvls_eff = req.topo->instance().efficiency.nvls;
  const Bytes intra{static_cast<std::uint64_t>(
      static_cast<double>(req.bytes.n) * (1.0 + 1.0 / static_cast<double>(g)) / nvls_eff)};
  if (g > 1)
    for (const auto& node : nodes)
      for (std::size_t i = 0; i < g; ++i) out.push_back({node[i], node[(i + 1) % g], intra, Bytes{0}});
  if (n > 1) {
    const std::vector<Bytes> slice = split_even(req.bytes, g);
    const std::vector<Bytes> slice_at = offsets_of(slice);
    for (const auto& group : nic_groups(req, nodes.front())) {
      // Ring all-reduce of the group's slices over the nodes: 2(N-1) chunks of 1/N leave each NIC.
      Bytes bytes;
      for (std::size_t i : group) bytes += slice[i];
      const std::vector<Bytes> chunk = split_even(bytes, n);
      Bytes sent;
      for (std::size_t k = 0; k < 2 * (n - 1); ++k) sent += chunk[k % n];
      const std::size_t i = group.front();
      for (std::size_t m = 0; m < n; ++m) out.push_back({nodes[m][i], nodes[(m + 1) % n][i], sent, slice_at[i]});
    }
  }
  return out;
}

}  // namespace

Version NvlsAllReduce::nccl_since(const Topology& topo) const
{
  return topo.nodes() > 1 ? Version{2, 18, 1} : Version{2, 17, 1};
}

// NVLink SHARP is a property of the third-generation NVSwitch: H100 and H200 NVSwitch nodes.
bool NvlsAllReduce::available(const Topology& topo) const
{
  const InstanceSpec& s = topo.instance();
  return s.intra == IntraNodeFabric::nvswitch &&
         (s.gpu.name.find("H100") != std::string::npos || s.gpu.name.find("H200") != std::string::npos);
}

StepSchedule NvlsAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  return pipelined_steps(req, plan(req));
}

CoarseSchedule NvlsAllReduce::phases(const Request& req) const
{
  check_request(req, *this);
  return pipelined_phases(req, "nvls reduce + multicast", plan(req));
}

// A reduce and a multicast through the switch and, between them, NVLSTree's tree over the nodes:
// up and down its depth, 2 ceil(log2 N) network hops (tuning.cc prices NVLSTree like the tree).
// The bandwidth drawing keeps a ring over the nodes: per NIC it moves 2(N-1)/N x the slice, the
// same bound as the pipelined tree's up-and-down traffic.
HopCount NvlsAllReduce::latency_hops(const Request& req) const
{
  const int n = static_cast<int>(ranks_by_node(req).size());
  int depth = 0;
  while ((1 << depth) < n) ++depth;
  return HopCount{2, 2 * depth};
}

}  // namespace ddpsim::algo
