#include "sim/network/analytical.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/error.hpp"
#include "sim/network/network_trace.hpp"

namespace ddpsim::sim {

Bandwidth memory_bandwidth(const Topology& topo, VertexId device)
{
  switch (topo.device(device).kind) {
    case DeviceKind::gpu: return topo.instance().gpu.hbm;
    case DeviceKind::cpu: return topo.instance().cpu_memory;
    default: DDPSIM_CHECK(false, "local work on a " + topo.device_name(device));
  }
  return {};
}

// Route classes (issue 21: 131,072 GPUs priced 0.5 M routes per schedule, one hash entry each).
// With symmetry_periods() > 1 (whole periods, nothing degraded) every period is wired like period
// 0 with links of the same bandwidth and latency, and distinct periods meet only through the
// fabric's switches, which treat every pair of periods alike (one switch; a leaf's uplink and the
// other leaf's downlink, all leaves alike; a rail's uplink, rails shared by all nodes). A route
// is then the same sequence of link values as the route between the same offsets in periods 0
// and 1 (or within period 0): same latency sum, same bottleneck, same connection cap.
AnalyticalBackend::AnalyticalBackend(const Topology& topo) : topo_(topo), router_(topo)
{
  if (topo.symmetry_periods() <= 1) return;
  period_vertices_ = static_cast<std::uint64_t>(topo.period_nodes()) * topo.vertices_per_node();
  const std::uint64_t classes = 2 * period_vertices_ * period_vertices_;
  if (classes <= (1u << 16)) {  // e.g. 24 devices per p4d node: 1,152 classes
    table_.resize(classes);
    table_used_.assign(classes, false);
  }
}

std::uint64_t AnalyticalBackend::route_class(VertexId src, VertexId dst) const
{
  const std::uint64_t in_nodes = static_cast<std::uint64_t>(topo_.nodes()) * topo_.vertices_per_node();
  if (period_vertices_ == 0 || src >= in_nodes || dst >= in_nodes)  // the top bit: never a class
    return (std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(src) << 32) | dst;
  const std::uint64_t w = period_vertices_;
  const bool same = src / w == dst / w;
  return ((same ? 0 : 1) * w + src % w) * w + dst % w;
}

AnalyticalBackend::PathCost AnalyticalBackend::cost(algo::TaskKind kind, VertexId src, VertexId dst)
{
  if (kind != algo::TaskKind::send) {
    DDPSIM_CHECK(src == dst, "a local task names two devices");
    return {Time{0}, memory_bandwidth(topo_, src)};
  }
  auto compute = [&] {
    Route r = router_.route(src, dst);
    // A flow-capped transport (TCP over ENA) limits the connection below the route's bottleneck.
    if (const double cap = connection_cap(topo_, src, dst); cap > 0)
      r.bottleneck.bytes_per_s = std::min(r.bottleneck.bytes_per_s, cap);
    return PathCost{r.latency, r.bottleneck, src, dst};
  };
  const std::uint64_t key = route_class(src, dst);
  if (!table_.empty() && key < table_.size()) {
    if (!table_used_[key]) {
      table_[key] = compute();
      table_used_[key] = true;
    }
    return table_[key];
  }
  auto it = cache_.find(key);
  if (it == cache_.end()) it = cache_.emplace(key, compute()).first;
  return it->second;
}

std::optional<std::vector<PricedRoute>> AnalyticalBackend::priced_routes() const
{
  constexpr std::size_t kMax = 4096;
  std::vector<PricedRoute> out;
  for (std::size_t k = 0; k < table_.size(); ++k)
    if (table_used_[k]) out.push_back(PricedRoute{table_[k].src, table_[k].dst, table_[k].bandwidth.bytes_per_s});
  if (cache_.size() > kMax) return std::nullopt;
  std::vector<std::pair<std::uint64_t, PricedRoute>> rest;  // in key order: deterministic
  for (const auto& [key, c] : cache_) rest.emplace_back(key, PricedRoute{c.src, c.dst, c.bandwidth.bytes_per_s});
  std::sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& r : rest) out.push_back(r.second);
  return out;
}

bool AnalyticalBackend::same_bottlenecks(const std::vector<PricedRoute>& routes)
{
  for (const PricedRoute& r : routes)
    if (r.src >= topo_.device_count() || r.dst >= topo_.device_count() ||
        cost(algo::TaskKind::send, r.src, r.dst).bandwidth.bytes_per_s != r.bottleneck)
      return false;
  return true;
}

Time AnalyticalBackend::phase_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule)
{
  Time slowest{0};
  for (const algo::Flow& f : phase.flows) {
    PathCost c = cost(f.kind, f.src, f.dst);
    if (!schedule.route_latency) c.latency = Time{0};
    const std::int64_t steps = f.kind == algo::TaskKind::send ? phase.steps : 1;
    Time t = (c.latency + f.step_overhead) * steps + transfer_time(f.bytes.as_double() * schedule.wire_factor, c.bandwidth);
    slowest = max(slowest, t);
  }
  return max(slowest, shared_link_time(phase, schedule));
}

// Flows of one phase that cross the same link divide it: the phase cannot end before the busiest
// link has carried what all its flows put on it (the bytes a max-min share would give them, in
// total; the flow backend shares exactly, and ends later where the shares are uneven). Each link
// pays the smallest fixed part (latency and step overheads) among its flows once. A device's
// memory is a link for its local reductions and copies, as in the flow backend. Where no link
// carries two flows this is never above the slowest flow, so nothing changes where nothing is
// shared. Only the links of nodes count (a node's own devices, and its NICs' links to the
// fabric): links between fabric switches carry flows of many nodes, and the routes' bottleneck
// holds their share (route classes above). With symmetric periods, only flows that start or end
// in period 0 are counted: every period loads its own links alike.
Time AnalyticalBackend::shared_link_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule)
{
  if (phase.flows.size() < 2) return Time{0};
  const std::vector<LinkUse>& uses = collect_uses(phase, schedule);
  Time busiest{0};
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i;
    double bytes = 0;
    Time fixed = uses[i].fixed;
    for (; j < uses.size() && uses[j].key == uses[i].key; ++j) {
      bytes += uses[j].bytes;
      fixed = std::min(fixed, uses[j].fixed);
    }
    if (j - i > 1) busiest = max(busiest, fixed + transfer_time(bytes, key_bandwidth(uses[i].key)));
    i = j;
  }
  return busiest;
}

Bandwidth AnalyticalBackend::key_bandwidth(std::uint64_t key) const
{
  return key < topo_.link_count() ? topo_.link(static_cast<EdgeId>(key)).bandwidth
                                  : memory_bandwidth(topo_, static_cast<VertexId>(key - topo_.link_count()));
}

const std::vector<AnalyticalBackend::LinkUse>& AnalyticalBackend::collect_uses(const algo::Phase& phase,
                                                                               const algo::CoarseSchedule& schedule)
{
  // One entry per (link, flow) crossing, sorted by link: no allocation once the buffer has grown.
  std::vector<LinkUse>& uses = link_uses_;
  uses.clear();
  const std::uint64_t in_nodes = static_cast<std::uint64_t>(topo_.nodes()) * topo_.vertices_per_node();
  auto in_period0 = [&](VertexId v) { return v >= in_nodes || v < period_vertices_; };
  for (const algo::Flow& f : phase.flows) {
    if (period_vertices_ > 0 && !in_period0(f.src) && !in_period0(f.dst)) continue;
    const double bytes = f.bytes.as_double() * schedule.wire_factor;
    if (f.kind != algo::TaskKind::send) {
      uses.push_back({topo_.link_count() + f.src, bytes, f.step_overhead});
      continue;
    }
    const Time fixed = ((schedule.route_latency ? cost(f.kind, f.src, f.dst).latency : Time{0}) + f.step_overhead) * phase.steps;
    for (EdgeId e : node_links(f.src, f.dst)) uses.push_back({e, bytes, fixed});
  }
  std::sort(uses.begin(), uses.end(), [](const LinkUse& a, const LinkUse& b) { return a.key < b.key; });
  return uses;
}

const std::vector<EdgeId>& AnalyticalBackend::node_links(VertexId src, VertexId dst)
{
  const std::uint64_t key = (static_cast<std::uint64_t>(src) << 32) | dst;
  auto it = node_links_.find(key);
  if (it != node_links_.end()) return it->second;
  const std::uint64_t in_nodes = static_cast<std::uint64_t>(topo_.nodes()) * topo_.vertices_per_node();
  std::vector<EdgeId> links;
  for (EdgeId e : router_.route(src, dst).links) {
    const Link& l = topo_.link(e);
    if (l.from < in_nodes || l.to < in_nodes) links.push_back(e);  // not between fabric switches
  }
  return node_links_.emplace(key, std::move(links)).first->second;
}

bool AnalyticalBackend::shares_links(const algo::CoarseSchedule& schedule)
{
  for (const algo::Phase& phase : schedule.phases)
    if (shared_link_time(phase, schedule) > Time{0}) return true;
  return false;
}

Time AnalyticalBackend::duration(const algo::CoarseSchedule& schedule)
{
  Time total = schedule.fixed_latency;
  for (const algo::Phase& phase : schedule.phases) total += phase_time(phase, schedule);
  return total;
}

std::vector<JobTiming> AnalyticalBackend::run(const std::vector<CollectiveJob>& jobs)
{
  std::vector<JobTiming> out(jobs.size());
  std::unordered_map<int, Time> stream_free;  // when each stream's previous job ended
  // Jobs on several streams can run at once and meet on a link (the parts of a pipelined
  // collective: algo::split_by_side). One stream never overlaps itself, so only then is a ledger kept.
  const bool streams = std::any_of(jobs.begin(), jobs.end(), [&](const CollectiveJob& j) { return j.stream != jobs.front().stream; });
  ledger_.clear();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    Time& free = stream_free[jobs[i].stream];
    out[i].start = max(jobs[i].ready, free);
    if (const auto a = jobs[i].after) {
      DDPSIM_CHECK(*a < i, "a job can only come after an earlier one");
      out[i].start = max(out[i].start, out[*a].end);
    }
    Time t = out[i].start + jobs[i].schedule.fixed_latency;
    for (const algo::Phase& phase : jobs[i].schedule.phases) {
      Time d = phase_time(phase, jobs[i].schedule);
      if (streams) d = booked_phase_time(phase, jobs[i].schedule, jobs[i].stream, t, d);
      if (timeline_) record_phase(*timeline_, topo_, router_, jobs[i], phase, t, t + d);
      t += d;
    }
    out[i].end = t;
    free = out[i].end;
  }
  return out;
}

// A phase that starts at t and would last d alone, among the phases of other streams already
// booked: on each link of a node it crosses, the bytes the others move there during [t, t + d]
// share the link with its own, so it lasts at least (own + theirs) / link bandwidth. Booked in
// job order, first come first served: a later job takes what the earlier ones leave (the flow
// backend shares max-min). With one stream nothing overlaps and nothing is booked.
Time AnalyticalBackend::booked_phase_time(const algo::Phase& phase, const algo::CoarseSchedule& schedule, int stream,
                                          Time t, Time d)
{
  if (d <= Time{0}) return d;
  // The phase's bytes on each link (uses are sorted by link).
  const std::vector<LinkUse>& uses = collect_uses(phase, schedule);
  std::vector<std::pair<std::uint64_t, double>>& per_link = phase_links_;
  per_link.clear();
  for (const LinkUse& u : uses) {
    if (per_link.empty() || per_link.back().first != u.key) per_link.emplace_back(u.key, 0.0);
    per_link.back().second += u.bytes;
  }
  const Time to = t + d;
  Time need = d;
  for (const auto& [key, bytes] : per_link) {
    const auto it = ledger_.find(key);
    if (it == ledger_.end()) continue;
    double theirs = 0;
    const LinkLedger& l = it->second;
    for (std::size_t k = 0; k < l.blocks.size(); ++k) {
      if (l.blocks[k].second <= t || l.blocks[k].first >= to) continue;  // nothing in it overlaps [t, to)
      const std::size_t end = std::min(l.bookings.size(), (k + 1) * LinkLedger::kBlock);
      for (std::size_t i = k * LinkLedger::kBlock; i < end; ++i) {
        const Booking& b = l.bookings[i];
        if (b.stream != stream && b.to > t && b.from < to)
          theirs += b.rate * static_cast<double>(((b.to < to ? b.to : to) - max(t, b.from)).ps);
      }
    }
    if (theirs > 0) need = max(need, transfer_time(bytes + theirs, key_bandwidth(key)));
  }
  for (const auto& [key, bytes] : per_link) ledger_[key].add(Booking{stream, t, t + need, bytes / static_cast<double>(need.ps)});
  return need;
}

void AnalyticalBackend::LinkLedger::add(const Booking& b)
{
  if (bookings.size() % kBlock == 0)
    blocks.emplace_back(b.from, b.to);
  else
    blocks.back() = {std::min(blocks.back().first, b.from), max(blocks.back().second, b.to)};
  bookings.push_back(b);
}

// A task starts when its last dependency ends; nothing here is shared, so no task ever waits for
// anything else and one pass in topological order (deps point backwards) gives every end time.
// Same times as running the DAG on the event engine, without 2 events per task (a flat 1,024-GPU
// ring all-reduce has 2.1 M tasks).
Time AnalyticalBackend::run_steps(const algo::StepSchedule& schedule)
{
  const auto& tasks = schedule.tasks;
  std::vector<Time> end(tasks.size());
  Time last{0};
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const algo::Task& t = tasks[i];
    Time start{0};
    for (std::uint32_t d : t.deps) {
      DDPSIM_CHECK(d < i, "step schedule is not topologically ordered");
      start = max(start, end[d]);
    }
    const PathCost c = cost(t.kind, t.src, t.dst);
    end[i] = start + c.latency + t.overhead + transfer_time(t.bytes, c.bandwidth);
    last = max(last, end[i]);
  }
  return last;
}

}  // namespace ddpsim::sim
