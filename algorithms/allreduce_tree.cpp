#include "algorithms/allreduce_tree.hpp"

#include <algorithm>

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/common.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

using Send = DeviceSend;

// One tree per channel, the bytes split evenly over the channels (as NCCL splits a collective
// over its channels). Channel c's chain in each node is the node's GPUs rotated as the ring's
// channel c is (channel_ring), so the chain heads that carry the inter-node trees are spread over
// the node's GPUs and, through them, over its NICs.
//
// `merged`: the coarse form. A head GPU sends to its parent and its children (and receives from
// them) through one NIC at once, which flows timed alone would not show. So the coarse form
// draws each channel's inter-node traffic as one flow per node, from its head to the next node's
// head, carrying the most any head of that channel sends (every node the same, so the flow engine
// can fold it): each NIC then carries its true load, and the phase ends when the busiest head
// is done. At 3+ nodes a head carries about 2 S / channels against the ring's 2 S (n-1)/n, which
// is NCCL's own finding (tuning.cc prices the tree from the inter-node graph beyond two nodes).
// The step form keeps every real send (data-level checks, traces).
std::vector<Send> plan(const Request& req, bool merged)
{
  const int channels = std::max(1, req.channels);
  const std::vector<Bytes> per_channel = split_even(req.bytes, static_cast<std::size_t>(channels));
  // On an NVSwitch node a GPU's two chain sends (S to its parent, S to its child) leave through
  // one switch port, which the analytical backend would not see as shared: draw them as one flow
  // of 2S to the next GPU, which puts the true 2S on each interior GPU's port in each direction.
  // That flow is a drawing of port load, not the data's path (docs/algorithms.md, "Data-level
  // check"). On NVLink meshes and PCIe the two sends use different links and stay separate.
  const bool one_port = req.topo->instance().intra == IntraNodeFabric::nvswitch;
  std::vector<Send> out;
  const std::vector<Bytes> channel_at = offsets_of(per_channel);
  for (int c = 0; c < channels; ++c) {
    const Bytes bytes = per_channel[static_cast<std::size_t>(c)];
    const Bytes at = channel_at[static_cast<std::size_t>(c)];  // the channel's part of the buffer
    Request chained = req;
    chained.ranks = channel_ring(req, c, channels);
    const auto nodes = ranks_by_node(chained);
    const int n = static_cast<int>(nodes.size());
    for (const auto& node : nodes)
      for (std::size_t i = 0; i + 1 < node.size(); ++i) {
        if (one_port) {
          out.push_back({node[i], node[i + 1], bytes + bytes, at});
          continue;
        }
        out.push_back({node[i + 1], node[i], bytes, at});  // reduce down the chain
        out.push_back({node[i], node[i + 1], bytes, at});  // broadcast back
      }
    const std::vector<Bytes> half = split_even(bytes, 2);
    const std::vector<Bytes> half_at = offsets_of(half, at);
    std::vector<std::uint64_t> sent(static_cast<std::size_t>(n), 0);  // per node, this channel
    for (int t = 0; t < 2 && n > 1; ++t)
      for (int m = 0; m < n; ++m) {
        const int p = t == 0 ? btree_parent(n, m) : dtree_parent(n, m);
        if (p < 0) continue;
        const VertexId child = nodes[static_cast<std::size_t>(m)].front(), parent = nodes[static_cast<std::size_t>(p)].front();
        const auto h = static_cast<std::size_t>(t);
        sent[static_cast<std::size_t>(m)] += half[h].n;  // reduce up
        sent[static_cast<std::size_t>(p)] += half[h].n;  // broadcast down
        if (!merged) {
          out.push_back({child, parent, half[h], half_at[h]});
          out.push_back({parent, child, half[h], half_at[h]});
        }
      }
    if (merged && n > 1) {
      const Bytes busiest{*std::max_element(sent.begin(), sent.end())};
      for (int m = 0; m < n; ++m)
        out.push_back({nodes[static_cast<std::size_t>(m)].front(), nodes[static_cast<std::size_t>((m + 1) % n)].front(), busiest, Bytes{0}});
    }
  }
  return out;
}

int depth(int n)
{
  int d = 0;
  while ((1 << d) < n) ++d;
  return d;
}

}  // namespace

int btree_parent(int n, int rank)
{
  DDPSIM_CHECK(rank >= 0 && rank < n, "tree rank out of range");
  if (rank == 0) return -1;
  int bit = 1;
  while (!(bit & rank)) bit <<= 1;
  int up = (rank ^ bit) | (bit << 1);
  if (up >= n) up = rank ^ bit;
  return up;
}

int dtree_parent(int n, int rank)
{
  if (n % 2 == 1) {  // shift by one
    const int p = btree_parent(n, (rank - 1 + n) % n);
    return p < 0 ? -1 : (p + 1) % n;
  }
  const int p = btree_parent(n, n - 1 - rank);  // mirror
  return p < 0 ? -1 : n - 1 - p;
}

StepSchedule TreeAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  return pipelined_steps(req, plan(req, false));
}

CoarseSchedule TreeAllReduce::phases(const Request& req) const
{
  check_request(req, *this);
  return pipelined_phases(req, "tree reduce + broadcast (pipelined)", plan(req, true));
}

HopCount TreeAllReduce::latency_hops(const Request& req) const
{
  const auto nodes = ranks_by_node(req);
  const int g = static_cast<int>(nodes.front().size()), n = static_cast<int>(nodes.size());
  return HopCount{2 * (g - 1), 2 * depth(n)};
}

}  // namespace ddpsim::algo
