#include "algorithms/common.hpp"

#include "core/error.hpp"

namespace ddpsim::algo {

void check_request(const Request& req, const Algorithm& algo)
{
  DDPSIM_CHECK(req.topo != nullptr && !req.ranks.empty(), "empty collective request");
  DDPSIM_CHECK(req.channels >= 1, "a collective needs at least one channel");
  DDPSIM_CHECK(algo.supports(req.op),
               std::string(algo.name()) + " does not implement " + std::string(to_string(req.op)));
}

Time hop_overhead(const Request& req, VertexId a, VertexId b)
{
  const bool inter = req.topo->device(a).node != req.topo->device(b).node;
  return inter ? req.latency.inter_step : req.latency.intra_step;
}

std::vector<std::vector<VertexId>> ranks_by_node(const Request& req)
{
  std::vector<std::vector<VertexId>> out;
  int last = -1;
  for (VertexId v : req.ranks) {
    const int node = req.topo->device(v).node;
    if (node != last) {
      for (const auto& g : out)
        DDPSIM_CHECK(req.topo->device(g.front()).node != node, "ranks are not node-major");
      out.emplace_back();
      last = node;
    }
    out.back().push_back(v);
  }
  return out;
}

std::vector<std::vector<std::size_t>> nic_groups(const Request& req, const std::vector<VertexId>& node_ranks)
{
  std::vector<std::vector<std::size_t>> out;
  std::map<VertexId, std::size_t> by_nic;
  for (std::size_t i = 0; i < node_ranks.size(); ++i) {
    const Device& d = req.topo->device(node_ranks[i]);
    const VertexId nic = req.topo->nic_of_gpu(d.node, d.index);
    auto [it, fresh] = by_nic.try_emplace(nic, out.size());
    if (fresh) out.emplace_back();
    out[it->second].push_back(i);
  }
  return out;
}

std::vector<Bytes> split_even(Bytes total, std::size_t parts)
{
  DDPSIM_CHECK(parts > 0, "split into zero parts");
  std::vector<Bytes> out(parts, Bytes{total.n / parts});
  for (std::size_t i = 0; i < total.n % parts; ++i) out[i].n += 1;
  return out;
}

PhaseBuilder::PhaseBuilder(const Request& req, std::string name, int steps) : req_(req)
{
  phase_.name = std::move(name);
  phase_.steps = steps;
}

void PhaseBuilder::send(VertexId src, VertexId dst, Bytes bytes)
{
  DDPSIM_CHECK(src != dst, "a send to itself");
  auto [it, fresh] = index_.try_emplace({0, src, dst}, flows_.size());
  if (fresh) flows_.push_back(Flow{TaskKind::send, src, dst, Bytes{}, hop_overhead(req_, src, dst)});
  flows_[it->second].bytes += bytes;
}

void PhaseBuilder::local(TaskKind kind, VertexId device, Bytes bytes)
{
  auto [it, fresh] = index_.try_emplace({static_cast<int>(kind), device, device}, flows_.size());
  if (fresh) flows_.push_back(Flow{kind, device, device, Bytes{}, Time{0}});
  flows_[it->second].bytes += bytes;
}

Phase PhaseBuilder::build() const
{
  Phase p = phase_;
  p.flows = flows_;
  return p;
}

void StepBuilder::add(TaskKind kind, VertexId src, VertexId dst, Bytes bytes)
{
  auto [it, fresh] = cur_.try_emplace({static_cast<int>(kind), src, dst}, out_.tasks.size());
  if (fresh) {
    Task t;
    t.kind = kind;
    t.src = src;
    t.dst = dst;
    t.overhead = kind == TaskKind::send ? hop_overhead(req_, src, dst) : Time{0};
    for (std::size_t i = prev_begin_; i < cur_begin_; ++i) {
      const Task& p = out_.tasks[i];
      if (lock_step_ || p.dst == src || p.src == src) t.deps.push_back(static_cast<std::uint32_t>(i));
    }
    out_.tasks.push_back(std::move(t));
  }
  out_.tasks[it->second].bytes += bytes;
}

void StepBuilder::send(VertexId src, VertexId dst, Bytes bytes)
{
  DDPSIM_CHECK(src != dst, "a send to itself");
  add(TaskKind::send, src, dst, bytes);
}

void StepBuilder::local(TaskKind kind, VertexId device, Bytes bytes) { add(kind, device, device, bytes); }

void StepBuilder::next_step()
{
  if (out_.tasks.size() == cur_begin_) return;  // empty step: nothing to close
  prev_begin_ = cur_begin_;
  cur_begin_ = out_.tasks.size();
  cur_.clear();
}

StepSchedule StepBuilder::build()
{
  next_step();
  return std::move(out_);
}

StepSchedule pipelined_steps(const Request& req, const std::vector<DeviceSend>& sends)
{
  StepBuilder b(req);
  for (const DeviceSend& s : sends) b.send(s.src, s.dst, s.bytes);
  return b.build();
}

CoarseSchedule pipelined_phases(const Request& req, const std::string& name, const std::vector<DeviceSend>& sends)
{
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  PhaseBuilder ph(req, name, 1);
  for (const DeviceSend& s : sends) ph.send(s.src, s.dst, s.bytes);
  if (!ph.empty()) c.phases.push_back(ph.build());
  return c;
}

}  // namespace ddpsim::algo
