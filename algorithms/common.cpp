#include "algorithms/common.hpp"

#include <algorithm>
#include <cstdint>

#include "core/error.hpp"

namespace ddpsim::algo {

void check_request(const Request& req, const Algorithm& algo)
{
  DDPSIM_CHECK(req.topo != nullptr && !req.ranks.empty(), "empty collective request");
  DDPSIM_CHECK(req.channels >= 1, "a collective needs at least one channel");
  DDPSIM_CHECK(!req.channel_orders || static_cast<int>(req.channel_orders->size()) == req.channels,
               "one rank order per channel");
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
  // Nodes already grouped: a flag per node, not a scan of the groups (that was O(nodes^2) per
  // call, half the time of a 16,384-GPU iteration; docs/performance.md).
  std::vector<bool> seen(static_cast<std::size_t>(req.topo->nodes()), false);
  int last = -1;
  for (VertexId v : req.ranks) {
    const int node = req.topo->device(v).node;
    if (node != last) {
      if (node >= 0) {  // fabric devices (node -1) are never ranks of a GPU collective
        DDPSIM_CHECK(!seen.at(static_cast<std::size_t>(node)), "ranks are not node-major");
        seen[static_cast<std::size_t>(node)] = true;
      }
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

std::vector<Bytes> offsets_of(const std::vector<Bytes>& chunks, Bytes base)
{
  std::vector<Bytes> out;
  out.reserve(chunks.size());
  for (Bytes c : chunks) {
    out.push_back(base);
    base += c;
  }
  return out;
}

std::vector<std::vector<ByteRange>> cut_ranges(const std::vector<ByteRange>& ranges, const std::vector<Bytes>& sizes)
{
  std::vector<std::vector<ByteRange>> out(sizes.size());
  std::size_t r = 0;
  Bytes used;  // of ranges[r]
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Bytes need = sizes[i];
    while (need.n > 0) {
      DDPSIM_CHECK(r < ranges.size(), "cut_ranges: parts larger than the ranges");
      const std::uint64_t take = std::min(need.n, ranges[r].bytes.n - used.n);
      if (take > 0) out[i].push_back({ranges[r].offset + used, Bytes{take}});
      used.n += take;
      need.n -= take;
      if (used == ranges[r].bytes) {
        ++r;
        used = Bytes{};
      }
    }
  }
  return out;
}

PhaseBuilder::PhaseBuilder(const Request& req, std::string name, int steps)
    : req_(req), head_(req.topo->device_count(), UINT32_MAX)
{
  phase_.name = std::move(name);
  phase_.steps = steps;
}

template <class Overhead>
std::uint32_t PhaseBuilder::flow(TaskKind kind, VertexId src, VertexId dst, Overhead overhead)
{
  DDPSIM_CHECK(src < head_.size(), "a flow from a device outside the topology");
  for (std::uint32_t i = head_[src]; i != UINT32_MAX; i = next_[i])
    if (flows_[i].kind == kind && flows_[i].dst == dst) return i;
  const auto i = static_cast<std::uint32_t>(flows_.size());
  flows_.push_back(Flow{kind, src, dst, Bytes{}, overhead()});
  next_.push_back(head_[src]);
  head_[src] = i;
  return i;
}

void PhaseBuilder::send(VertexId src, VertexId dst, Bytes bytes)
{
  DDPSIM_CHECK(src != dst, "a send to itself");
  flows_[flow(TaskKind::send, src, dst, [&] { return hop_overhead(req_, src, dst); })].bytes += bytes;
}

void PhaseBuilder::local(TaskKind kind, VertexId device, Bytes bytes, Time overhead)
{
  flows_[flow(kind, device, device, [=] { return overhead; })].bytes += bytes;
}

Phase PhaseBuilder::build() const
{
  Phase p = phase_;
  p.flows = flows_;
  return p;
}

StepBuilder::StepBuilder(const Request& req, bool lock_step)
    : req_(req),
      lock_step_(lock_step),
      src_step_(req.topo->device_count(), UINT32_MAX),
      src_head_(req.topo->device_count(), 0),
      touch_step_(req.topo->device_count(), UINT32_MAX),
      touch_head_(req.topo->device_count(), 0)
{
}

// Adds [offset, offset + bytes) to task `i`'s data: adjacent to its last range, it just grows
// (no allocation: the common case); otherwise the task gets a piece list.
void StepBuilder::extend(std::uint32_t i, Bytes bytes, Bytes offset)
{
  Task& t = out_.tasks[i];
  auto it = out_.pieces.find(i);
  if (it == out_.pieces.end()) {
    if (t.offset + t.bytes == offset || bytes.n == 0) {
      t.bytes += bytes;
      return;
    }
    if (t.bytes.n == 0) {  // nothing carried yet: start at the new range
      t.offset = offset;
      t.bytes = bytes;
      return;
    }
    it = out_.pieces.emplace(i, std::vector<ByteRange>{{t.offset, t.bytes}}).first;
  }
  if (bytes.n > 0) {
    ByteRange& last = it->second.back();
    if (last.offset + last.bytes == offset) last.bytes += bytes;
    else it->second.push_back({offset, bytes});
  }
  t.bytes += bytes;
}

void StepBuilder::add(TaskKind kind, VertexId src, VertexId dst, Bytes bytes, Bytes offset, Time overhead)
{
  DDPSIM_CHECK(src < src_step_.size() && dst < src_step_.size(), "a task names a device outside the topology");
  // Merge with this step's task of the same (kind, src, dst), if any.
  if (src_step_[src] == step_)
    for (std::uint32_t i = src_head_[src];; i = same_src_next_[i - cur_begin_]) {
      Task& t = out_.tasks[i];
      if (t.kind == kind && t.dst == dst) {
        extend(i, bytes, offset);
        return;
      }
      if (same_src_next_[i - cur_begin_] == UINT32_MAX) break;
    }
  Task t;
  t.kind = kind;
  t.src = src;
  t.dst = dst;
  t.bytes = bytes;
  t.offset = offset;
  t.overhead = overhead;
  if (lock_step_) {
    for (std::size_t i = prev_begin_; i < cur_begin_; ++i) t.deps.push_back(static_cast<std::uint32_t>(i));
  } else {
    // The previous step's tasks that sent from or to `src` (the chain is newest first).
    if (step_ > 0 && touch_step_[src] == step_ - 1)
      for (std::uint32_t n = touch_head_[src]; n != UINT32_MAX; n = touch_[n].second) t.deps.push_back(touch_[n].first);
    std::reverse(t.deps.begin(), t.deps.end());
  }
  const auto index = static_cast<std::uint32_t>(out_.tasks.size());
  same_src_next_.push_back(src_step_[src] == step_ ? src_head_[src] : UINT32_MAX);
  src_step_[src] = step_;
  src_head_[src] = index;
  out_.tasks.push_back(std::move(t));
}

void StepBuilder::send(VertexId src, VertexId dst, Bytes bytes, Bytes offset)
{
  DDPSIM_CHECK(src != dst, "a send to itself");
  add(TaskKind::send, src, dst, bytes, offset, hop_overhead(req_, src, dst));
}

void StepBuilder::send(VertexId src, VertexId dst, const std::vector<ByteRange>& ranges)
{
  if (ranges.empty()) return send(src, dst, Bytes{0}, Bytes{0});
  for (const ByteRange& r : ranges) send(src, dst, r.bytes, r.offset);
}

void StepBuilder::local(TaskKind kind, VertexId device, Bytes bytes, Bytes offset, Time overhead)
{
  add(kind, device, device, bytes, offset, overhead);
}

void StepBuilder::next_step()
{
  if (out_.tasks.size() == cur_begin_) return;  // empty step: nothing to close
  prev_begin_ = cur_begin_;
  cur_begin_ = out_.tasks.size();
  ++step_;
  same_src_next_.clear();
  touch_.clear();
  auto link = [&](VertexId dev, std::uint32_t task) {
    const std::uint32_t next = touch_step_[dev] == step_ - 1 ? touch_head_[dev] : UINT32_MAX;
    touch_step_[dev] = step_ - 1;
    touch_head_[dev] = static_cast<std::uint32_t>(touch_.size());
    touch_.emplace_back(task, next);
  };
  for (std::size_t i = prev_begin_; i < cur_begin_; ++i) {
    const Task& t = out_.tasks[i];
    link(t.src, static_cast<std::uint32_t>(i));
    if (t.dst != t.src) link(t.dst, static_cast<std::uint32_t>(i));
  }
}

StepSchedule StepBuilder::build()
{
  next_step();
  return std::move(out_);
}

StepSchedule pipelined_steps(const Request& req, const std::vector<DeviceSend>& sends)
{
  StepBuilder b(req);
  for (const DeviceSend& s : sends) b.send(s.src, s.dst, s.bytes, s.offset);
  StepSchedule out = b.build();
  out.pipelined = true;
  return out;
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
