#include "algorithms/host_exchange.hpp"

#include <algorithm>

#include "algorithms/allreduce_ring.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {

StagedSchedule::StagedSchedule(const Request& req, bool with_steps) : req_(req), with_steps_(with_steps)
{
  DDPSIM_CHECK(req.topo != nullptr && !req.ranks.empty(), "empty collective request");
  local_.resize(static_cast<std::size_t>(req.topo->nodes()));
  for (VertexId g : req.ranks) local_[static_cast<std::size_t>(req.topo->device(g).node)].push_back(g);
  local_.erase(std::remove_if(local_.begin(), local_.end(), [](const auto& v) { return v.empty(); }), local_.end());
  const std::size_t g = local_.front().size();
  for (const auto& l : local_) DDPSIM_CHECK(l.size() == g, "host algorithms need the same GPU count on every node");
  const InstanceSpec& inst = req.topo->instance();
  stripes_ = std::max(1, std::min(inst.cpu_sockets, inst.nic.count));
  coarse_.fixed_latency = req.latency.base;
}

VertexId StagedSchedule::server(int node, int stripe) const
{
  const int topo_node = req_.topo->device(local_[static_cast<std::size_t>(node)].front()).node;
  const InstanceSpec& inst = req_.topo->instance();
  // Spread the stripes over the sockets so each lands on a different NIC.
  return req_.topo->cpu(topo_node, stripe * inst.cpu_sockets / stripes_);
}

int StagedSchedule::stripe_of(std::size_t j) const
{
  return static_cast<int>(j * static_cast<std::size_t>(stripes_) / local_.front().size());
}

Time StagedSchedule::step_overhead(VertexId a, VertexId b) const
{
  const bool inter = req_.topo->device(a).node != req_.topo->device(b).node;
  return inter ? req_.latency.inter_step : req_.latency.intra_step;
}

void StagedSchedule::barrier()
{
  if (!with_steps_) return;
  Task t;
  t.kind = TaskKind::copy;  // zero bytes on one device: a join point that costs nothing
  t.src = t.dst = req_.ranks.front();
  t.deps = frontier_;
  steps_.tasks.push_back(std::move(t));
  frontier_ = {static_cast<std::uint32_t>(steps_.tasks.size() - 1)};
}

void StagedSchedule::add_local_ring(CollectiveOp op)
{
  if (local_.front().size() < 2) return;
  const RingAllReduce ring;
  Phase merged;
  std::vector<std::uint32_t> ends;
  for (const auto& gpus : local_) {
    Request r = req_;
    r.op = op;
    r.ranks = gpus;
    CoarseSchedule c = ring.phases(r);
    for (Phase& p : c.phases) {
      merged.name = "intra-node " + std::string(to_string(op));
      merged.steps = p.steps;
      merged.flows.insert(merged.flows.end(), p.flows.begin(), p.flows.end());
    }
    if (!with_steps_) continue;
    StepSchedule s = ring.steps(r);
    const auto offset = static_cast<std::uint32_t>(steps_.tasks.size());
    for (auto& [i, ranges] : s.pieces) steps_.pieces.emplace(i + offset, std::move(ranges));
    for (Task& t : s.tasks) {
      for (std::uint32_t& d : t.deps) d += offset;
      if (t.deps.empty()) t.deps = frontier_;
      steps_.tasks.push_back(std::move(t));
    }
    for (std::uint32_t i = offset; i < steps_.tasks.size(); ++i) ends.push_back(i);
  }
  coarse_.phases.push_back(std::move(merged));
  if (with_steps_) {
    frontier_ = std::move(ends);
    barrier();
  }
}

void StagedSchedule::add_stage(const std::string& name, const std::vector<Lane>& lanes, bool per_round, bool on_host)
{
  if (lanes.empty()) return;
  Phase phase{name, {}, static_cast<int>(lanes.front().size()), on_host};
  std::vector<std::uint32_t> ends;
  for (const Lane& lane : lanes)
    DDPSIM_CHECK(static_cast<int>(lane.size()) == phase.steps && !lane.empty(), "uneven lanes in stage " + name);
  if (per_round) {
    // One phase per round, each transfer on its own route: the flow engine then sees where an
    // all-to-all's traffic goes (e.g. across an oversubscribed spine), not only its first hop.
    for (int k = 0; k < phase.steps; ++k) {
      Phase round{name + " round " + std::to_string(k + 1), {}, 1, on_host};
      for (const Lane& lane : lanes) {
        const Transfer& t = lane[static_cast<std::size_t>(k)];
        round.flows.push_back(Flow{t.kind, t.src, t.dst, t.bytes, t.overhead});
      }
      coarse_.phases.push_back(std::move(round));
    }
  }
  for (const Lane& lane : lanes) {
    Flow f{lane.front().kind, lane.front().src, lane.front().dst, Bytes{0}, lane.front().overhead};
    for (const Transfer& t : lane) f.bytes += t.bytes;
    phase.flows.push_back(f);
    if (!with_steps_) continue;
    std::vector<std::uint32_t> deps = frontier_;
    for (const Transfer& t : lane) {
      const auto index = static_cast<std::uint32_t>(steps_.tasks.size());
      Bytes offset;
      if (t.data.size() == 1) offset = t.data.front().offset;
      if (t.data.size() > 1) steps_.pieces.emplace(index, t.data);
      steps_.tasks.push_back(Task{t.kind, t.src, t.dst, t.bytes, offset, deps, t.overhead});
      deps = {static_cast<std::uint32_t>(steps_.tasks.size() - 1)};
    }
    ends.push_back(deps.front());
  }
  if (!per_round) coarse_.phases.push_back(std::move(phase));
  if (with_steps_) {
    frontier_ = std::move(ends);
    barrier();
  }
}

}  // namespace ddpsim::algo
