#include "algorithms/broadcast_ring.hpp"

#include "algorithms/common.hpp"

namespace ddpsim::algo {
namespace {

// Every edge of the opened ring carries the whole buffer; the pipeline overlaps them.
std::vector<DeviceSend> chain(const Request& req)
{
  std::vector<DeviceSend> out;
  for (std::size_t r = 0; r + 1 < req.ranks.size(); ++r) out.push_back({req.ranks[r], req.ranks[r + 1], req.bytes, Bytes{0}});
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
