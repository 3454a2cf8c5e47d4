#include "algorithms/broadcast_ring.hpp"

#include <algorithm>

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/common.hpp"

namespace ddpsim::algo {
namespace {

// Every edge of the opened ring carries the whole buffer; the pipeline overlaps them. Issue 20:
// as NCCL, the buffer is cut over the channels, each channel's part flowing along that channel's
// ring (allreduce_ring.hpp's channel_ring: rotated inside every node, so the channels cross nodes
// through different GPUs and NICs) opened at the root. One channel: the ring in rank order.
std::vector<DeviceSend> chain(const Request& req)
{
  std::vector<DeviceSend> out;
  const int channels = std::max(1, req.channels);
  const std::vector<Bytes> parts = split_even(req.bytes, static_cast<std::size_t>(channels));
  Bytes at{0};
  for (int c = 0; c < channels; ++c) {
    const std::vector<VertexId> ring = channels == 1 ? req.ranks : channel_ring(req, c, channels);
    const std::size_t root = static_cast<std::size_t>(std::find(ring.begin(), ring.end(), req.ranks.front()) - ring.begin());
    for (std::size_t k = 0; k + 1 < ring.size(); ++k)
      out.push_back({ring[(root + k) % ring.size()], ring[(root + k + 1) % ring.size()], parts[static_cast<std::size_t>(c)], at});
    at = Bytes{at.n + parts[static_cast<std::size_t>(c)].n};
  }
  return out;
}

}  // namespace

StepSchedule RingBroadcast::steps(const Request& req) const
{
  check_request(req, *this);
  return pipelined_steps(req, chain(req));
}

CoarseSchedule RingBroadcast::phases(const Request& req) const
{
  check_request(req, *this);
  return pipelined_phases(req, "ring broadcast (pipelined)", chain(req));
}

HopCount RingBroadcast::latency_hops(const Request& req) const
{
  HopCount h;
  for (std::size_t r = 0; r + 1 < req.ranks.size(); ++r)
    (req.topo->device(req.ranks[r]).node == req.topo->device(req.ranks[r + 1]).node ? h.intra : h.inter) += 1;
  return h;
}

}  // namespace ddpsim::algo
