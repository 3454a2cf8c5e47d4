#include "algorithms/schedule.hpp"

#include "algorithms/algorithm.hpp"
#include "algorithms/common.hpp"

namespace ddpsim::algo {

std::string_view to_string(CollectiveOp op)
{
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::reduce: return "reduce";
  }
  return "?";
}

Bytes total_sent(const StepSchedule& s)
{
  Bytes total;
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::send) total += t.bytes;
  return total;
}

std::vector<ByteRange> data_ranges(const StepSchedule& s, std::size_t i)
{
  if (auto it = s.pieces.find(static_cast<std::uint32_t>(i)); it != s.pieces.end()) return it->second;
  return {ByteRange{s.tasks[i].offset, s.tasks[i].bytes}};
}

std::vector<CoarseSchedule> split_by_side(const CoarseSchedule& s)
{
  std::vector<CoarseSchedule> parts;
  for (const Phase& p : s.phases) {
    if (parts.empty() || parts.back().phases.back().on_host != p.on_host) {
      CoarseSchedule part;
      part.fixed_latency = parts.empty() ? s.fixed_latency : Time{0};
      part.route_latency = s.route_latency;
      part.wire_factor = s.wire_factor;
      parts.push_back(std::move(part));
    }
    parts.back().phases.push_back(p);
  }
  if (parts.empty()) parts.push_back(s);
  return parts;
}

Bytes total_sent(const CoarseSchedule& s)
{
  Bytes total;
  for (const Phase& p : s.phases)
    for (const Flow& f : p.flows)
      if (f.kind == TaskKind::send) total += f.bytes;
  return total;
}

std::vector<VertexId> all_gpus(const Topology& topo)
{
  std::vector<VertexId> out;
  out.reserve(static_cast<std::size_t>(topo.gpu_count()));
  for (int n = 0; n < topo.nodes(); ++n)
    for (int g = 0; g < topo.gpus_per_node(); ++g) out.push_back(topo.gpu(n, g));
  return out;
}

HopCount Algorithm::latency_hops(const Request& req) const
{
  HopCount h;
  for (const Phase& p : phases(req).phases) {
    bool inter = false;
    for (const Flow& f : p.flows)
      inter = inter || (f.kind == TaskKind::send && req.topo->device(f.src).node != req.topo->device(f.dst).node);
    (inter ? h.inter : h.intra) += p.steps;
  }
  return h;
}

std::vector<ByteRange> Algorithm::shard(const Request& req, std::size_t rank) const
{
  const std::vector<Bytes> chunks = split_even(req.bytes, req.ranks.size());
  return {ByteRange{offsets_of(chunks)[rank], chunks[rank]}};
}

}  // namespace ddpsim::algo
