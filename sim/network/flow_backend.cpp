#include "sim/network/flow_backend.hpp"

#include <cmath>
#include <sys/resource.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "core/error.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/flow_fold.hpp"
#include "sim/network/flow_graph.hpp"
#include "sim/network/flow_merge.hpp"  // issue 21
#include "sim/network/network_trace.hpp"
#include "core/subprocess.hpp"

namespace ddpsim::sim {
namespace {

// Builds a FlowGraph: links are created on first use, routes are shared by flows with the same
// path; a flow's analytical latency is a delay item in front of it, shared by the flows that
// wait for the same thing for the same time. Link keys: topology edges, then one memory "link" per device (local reductions
// and copies run at its memory bandwidth and share it), then one fatpipe per distinct delay.
class GraphBuilder {
 public:
  GraphBuilder(const Topology& topo, const Router& router, bool fold) : topo_(topo), router_(router), fold_(fold) {}

  // Route index for a flow of `kind` from src to dst.
  std::int32_t route(algo::TaskKind kind, VertexId src, VertexId dst)
  {
    const auto key = std::tuple{kind == algo::TaskKind::send, src, dst, std::int64_t{0}};
    if (auto it = routes_.find(key); it != routes_.end()) return it->second;
    std::vector<std::uint32_t> path;
    if (kind == algo::TaskKind::send) {
      for (EdgeId e : router_.route(src, dst).links) {
        const EdgeId f = fold_ ? topo_.fold_link(e) : e;
        path.push_back(link(f, topo_.link(f).bandwidth.bytes_per_s));
      }
      // A transport's per-flow cap (EC2 caps each TCP flow) is a property of the route: a link of
      // its own with the cap's bandwidth, so several connections fill a NIC one cannot. (SimGrid
      // 3.32's Comm::set_rate does not apply to host-to-host sendto communications.)
      if (const double cap = connection_cap(topo_, src, dst); cap > 0)
        path.push_back(link(kCapKeyBase + static_cast<std::size_t>(g_.routes.size()), cap));
      std::vector<std::uint32_t> sorted = path;
      std::sort(sorted.begin(), sorted.end());
      // A folded route crossing two copies of one link would be charged twice: plan() then unfolds.
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) folded_twice_ = true;
    } else {
      DDPSIM_CHECK(src == dst, "a local task names two devices");
      const VertexId dev = fold_ ? topo_.fold_vertex(src) : src;
      path.push_back(link(topo_.link_count() + dev, memory_bandwidth(topo_, dev).bytes_per_s));
    }
    const auto id = static_cast<std::int32_t>(g_.routes.size());
    g_.routes.push_back(std::move(path));
    routes_.emplace(key, id);
    return id;
  }

  // A pure delay: a zero-byte item over a fatpipe with that latency. Delays never share a route
  // with payload: a link far wider than the real ones upsets the max-min solver's precision.
  std::int32_t delay_route(Time delay)
  {
    const auto key = std::tuple{false, VertexId{0}, VertexId{0}, -delay.ps};
    if (auto it = routes_.find(key); it != routes_.end()) return it->second;
    const auto id = static_cast<std::int32_t>(g_.routes.size());
    g_.routes.push_back({delay_link(delay)});
    routes_.emplace(key, id);
    return id;
  }

  std::uint32_t add(std::int32_t route, Bytes bytes, std::vector<std::uint32_t> deps)
  {
    g_.items.push_back(FlowGraph::Item{route, bytes.n, std::move(deps)});
    return static_cast<std::uint32_t>(g_.items.size() - 1);
  }
  // Completes once `deps` have, after `delay` (an instant barrier when delay is 0).
  std::uint32_t wait(std::vector<std::uint32_t> deps, Time delay = Time{0})
  {
    return add(delay > Time{0} ? delay_route(delay) : -1, Bytes{0}, std::move(deps));
  }

  std::size_t size() const { return g_.items.size(); }
  FlowGraph& graph() { return g_; }
  bool folded_twice() const { return folded_twice_; }
  FlowGraph take() { return std::move(g_); }

 private:
  static constexpr std::size_t kCapKeyBase = std::size_t{1} << 40;  // keys of per-route cap links
  std::uint32_t link(std::size_t key, double bandwidth)
  {
    auto [it, fresh] = links_.try_emplace(key, static_cast<std::uint32_t>(g_.links.size()));
    if (fresh) g_.links.push_back(FlowGraph::Link{bandwidth, 0.0, false});
    return it->second;
  }
  std::uint32_t delay_link(Time delay)
  {
    auto [it, fresh] = delays_.try_emplace(delay.ps, static_cast<std::uint32_t>(g_.links.size()));
    // Far above any real link, and a fatpipe: the delay link never limits or couples flows.
    if (fresh) g_.links.push_back(FlowGraph::Link{1e18, delay.seconds(), true});
    return it->second;
  }

  const Topology& topo_;
  const Router& router_;
  bool fold_;
  bool folded_twice_ = false;
  FlowGraph g_;
  std::unordered_map<std::size_t, std::uint32_t> links_;
  std::unordered_map<std::int64_t, std::uint32_t> delays_;
  std::map<std::tuple<bool, VertexId, VertexId, std::int64_t>, std::int32_t> routes_;
};

// The bytes a flow puts on the wire when the schedule inflates them (algo::CoarseSchedule::wire_factor).
Bytes scaled(Bytes b, double factor) { return Bytes{static_cast<std::uint64_t>(std::llround(b.as_double() * factor))}; }

struct Planned {
  FlowGraph graph;
  std::vector<std::uint32_t> start, end;  // per job: items whose completion is its start and end
  std::vector<std::vector<std::uint32_t>> phase_start;  // per job, per phase: item it starts after
  std::uint64_t flows = 0;
  bool folded_twice = false;  // a folded route crosses two copies of one link: do not fold
};

Planned plan(const Topology& topo, const Router& router, const std::vector<CollectiveJob>& jobs,
             const FoldedBytes* folded, Time origin)
{
  const bool fold = folded != nullptr;
  Planned out;
  GraphBuilder b(topo, router, fold);
  std::unordered_map<int, std::uint32_t> stream_end;
  // One stream: phases never overlap, so a flow alone on its links in its phase runs alone
  // (flow_merge.hpp: twins of such flows share one SimGrid comm).
  const bool one_stream = std::all_of(jobs.begin(), jobs.end(), [&](const CollectiveJob& j) { return j.stream == jobs.front().stream; });
  std::vector<std::uint32_t> scratch;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const CollectiveJob& job = jobs[j];
    std::vector<std::uint32_t> deps{b.wait({}, job.ready - origin)};
    if (auto it = stream_end.find(job.stream); it != stream_end.end()) deps.push_back(it->second);
    if (job.after) {
      DDPSIM_CHECK(*job.after < j, "a job can only come after an earlier one");
      deps.push_back(out.end[*job.after]);
    }
    const std::uint32_t start = b.wait(std::move(deps));
    std::uint32_t last = b.wait({start}, job.schedule.fixed_latency);
    out.phase_start.emplace_back();
    for (std::size_t k = 0; k < job.schedule.phases.size(); ++k) {
      const algo::Phase& phase = job.schedule.phases[k];
      out.phase_start.back().push_back(last);
      std::vector<std::uint32_t> flows;
      std::map<std::int64_t, std::uint32_t> delays;  // delay -> item that ends it
      for (std::size_t i = 0; i < phase.flows.size(); ++i) {
        const algo::Flow& f = phase.flows[i];
        if (fold && topo.period_of(f.src) != 0) continue;
        const Bytes bytes = fold ? (*folded)[j][k][i] : f.bytes;
        const bool send = f.kind == algo::TaskKind::send;
        // As the analytical backend: a send pays steps x (route latency + overhead); local work once.
        const Time wire = send && job.schedule.route_latency ? router.route(f.src, f.dst).latency : Time{0};
        const Time delay = send ? (wire + f.step_overhead) * phase.steps : f.step_overhead;
        auto [d, fresh] = delays.try_emplace(delay.ps, last);
        if (fresh && delay > Time{0}) d->second = b.wait({last}, delay);
        const Bytes on_wire = job.schedule.wire_factor == 1.0 ? bytes : scaled(bytes, job.schedule.wire_factor);
        flows.push_back(b.add(b.route(f.kind, f.src, f.dst), on_wire, {d->second}));
      }
      out.flows += flows.size();
      if (one_stream) merge_isolated(b.graph(), flows, scratch);
      if (flows.empty()) flows.push_back(last);
      last = b.wait(std::move(flows));
    }
    out.start.push_back(start);
    out.end.push_back(last);
    stream_end[job.stream] = last;
  }
  out.folded_twice = fold && b.folded_twice();
  out.graph = b.take();
  return out;
}

std::string encode(const std::vector<double>& v)
{
  std::string s(v.size() * sizeof(double), '\0');
  std::memcpy(s.data(), v.data(), s.size());
  return s;
}

std::vector<double> decode(const std::string& s)
{
  DDPSIM_CHECK(s.size() % sizeof(double) == 0, "malformed result from the simulation process");
  std::vector<double> v(s.size() / sizeof(double));
  std::memcpy(v.data(), s.data(), s.size());
  return v;
}

// Simulates `graph` in a child process; returns item completion times, and the comm count and
// the child's peak memory in `stats`.
std::vector<double> simulate(const FlowGraph& graph, FlowStats& stats)
{
  std::vector<double> out = decode(run_in_child([&] {
    FlowRunStats st;
    std::vector<double> done = run_flow_graph(graph, &st);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    done.push_back(static_cast<double>(st.comms));
    done.push_back(static_cast<double>(usage.ru_maxrss));
    return encode(done);
  }));
  DDPSIM_CHECK(out.size() == graph.items.size() + 2, "simulation process returned the wrong number of times");
  stats.peak_rss_kib = out.back();
  out.pop_back();
  stats.comms = static_cast<std::uint64_t>(out.back());
  out.pop_back();
  return out;
}

}  // namespace

FlowBackend::FlowBackend(const Topology& topo) : topo_(topo), router_(topo) {}

std::vector<JobTiming> FlowBackend::run(const std::vector<CollectiveJob>& jobs)
{
  stats_ = {};
  if (jobs.empty()) return {};
  const std::optional<FoldedBytes> folded = folding_ ? symmetric(topo_, jobs) : std::nullopt;
  bool fold = folded.has_value();
  // SimGrid's clock is a double and its solver's precision is absolute: an iteration that starts
  // its first bucket days in (a long measured step) would leave millisecond flows lost in the
  // rounding of the clock ("a flow never completed"). Simulate from the first ready time instead.
  Time origin = jobs.front().ready;
  for (const CollectiveJob& j : jobs) origin = std::min(origin, j.ready);
  Planned p = plan(topo_, router_, jobs, fold ? &*folded : nullptr, origin);
  if (p.folded_twice) {  // folding would charge one flow twice on a link: simulate every rank
    fold = false;
    p = plan(topo_, router_, jobs, nullptr, origin);
  }
  const std::vector<double> done = simulate(p.graph, stats_);
  stats_.flows = p.flows;
  stats_.folded = fold;
  std::vector<JobTiming> out(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    // The ready time went through SimGrid's double clock: keep the exact integer where possible.
    out[j].start = max(jobs[j].ready, origin + Time::from_seconds(done[p.start[j]]));
    out[j].end = max(out[j].start, origin + Time::from_seconds(done[p.end[j]]));
    if (!timeline_) continue;
    const auto& phases = jobs[j].schedule.phases;
    for (std::size_t k = 0; k < phases.size(); ++k) {
      const Time from = origin + Time::from_seconds(done[p.phase_start[j][k]]);
      const Time to = k + 1 < phases.size() ? origin + Time::from_seconds(done[p.phase_start[j][k + 1]]) : out[j].end;
      record_phase(*timeline_, topo_, router_, jobs[j], phases[k], from, to);
    }
  }
  return out;
}

Time FlowBackend::run_steps(const algo::StepSchedule& schedule)
{
  stats_ = {};
  GraphBuilder b(topo_, router_, false);
  for (const algo::Task& t : schedule.tasks) {
    const bool send = t.kind == algo::TaskKind::send;
    const Time delay = send ? router_.route(t.src, t.dst).latency + t.overhead : t.overhead;
    // Item 2i is task i's delay, 2i+1 its transfer.
    std::vector<std::uint32_t> deps;
    for (std::uint32_t d : t.deps) deps.push_back(2 * d + 1);
    b.wait(std::move(deps), delay);
    b.add(b.route(t.kind, t.src, t.dst), t.bytes, {static_cast<std::uint32_t>(b.size() - 1)});
  }
  const FlowGraph g = b.take();
  if (g.items.empty()) return Time{0};
  const std::vector<double> done = simulate(g, stats_);
  stats_.flows = schedule.tasks.size();
  return Time::from_seconds(*std::max_element(done.begin(), done.end()));
}

}  // namespace ddpsim::sim
