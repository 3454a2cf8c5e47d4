// The flow backend: agreement with the analytical backend where nothing is shared, over every
// registered algorithm; and contention the analytical model cannot see, each against a time
// computed by hand from the catalog's link bandwidths (max-min fair sharing of the bottleneck).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <future>
#include <set>
#include <thread>

#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "support.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/flow_backend.hpp"
#include "core/subprocess.hpp"
#include "topology/rings.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;

namespace {

using test::instance;

sim::CollectiveJob job(CoarseSchedule s, int stream = 0, Time ready = Time{0})
{
  return sim::CollectiveJob{ready, stream, std::move(s), "job"};
}

// A NIC's achievable rate: line rate x the catalog's framing efficiency (docs/model.md).
Bandwidth nic_rate(const InstanceSpec& s) { return Bandwidth{s.nic.bandwidth.bytes_per_s * s.efficiency.nic}; }

double rel(Time a, Time b) { return std::abs(a.seconds() - b.seconds()) / std::max(a.seconds(), 1e-30); }

// A phase where every listed (src, dst) pair moves `bytes`, one step.
CoarseSchedule pairs(const std::vector<std::pair<VertexId, VertexId>>& p, Bytes bytes)
{
  Phase ph{"pairs", {}, 1};
  for (auto [s, d] : p) ph.flows.push_back(Flow{TaskKind::send, s, d, bytes, Time{0}});
  return CoarseSchedule{{ph}, Time{0}};
}

// When the first of several flows through one saturated link starts (they start after their own
// route latency): from then on the link is never idle, so the last ends once it moved them all.
Time min_latency(const Topology& topo, const std::vector<std::pair<VertexId, VertexId>>& p)
{
  Router router(topo);
  Time t = router.route(p[0].first, p[0].second).latency;
  for (auto [s, d] : p) t = std::min(t, router.route(s, d).latency, [](Time a, Time b) { return a.ps < b.ps; });
  return t;
}

// True when, in some phase, two flows cross the same directed link or two local tasks run on
// one device: then max-min sharing may slow them and the analytical time is only a lower bound.
bool shares_a_link(const Topology& topo, const CoarseSchedule& s)
{
  Router router(topo);
  for (const Phase& ph : s.phases) {
    std::set<std::uint64_t> used;
    for (const Flow& f : ph.flows) {
      if (f.kind != TaskKind::send) {
        if (!used.insert((std::uint64_t{1} << 40) | f.src).second) return true;
        continue;
      }
      for (EdgeId e : router.route(f.src, f.dst).links)
        if (!used.insert(e).second) return true;
    }
  }
  return false;
}

bool staged_case(const Topology& topo) { return !topo.instance().nic.gpudirect && topo.nodes() > 1; }

}  // namespace

TEST_CASE("flow equals analytical where nothing is shared and is never faster where links are shared")
{
  const char* inst = GENERATE("p4d.24xlarge", "p3.16xlarge");
  const int nodes = GENERATE(1, 2, 4);
  const std::uint64_t bytes = GENERATE(std::uint64_t{4096}, std::uint64_t{1000003}, std::uint64_t{256} * MiB);
  Topology topo(instance(inst), nodes, 8);
  sim::AnalyticalBackend analytical(topo);
  sim::FlowBackend flow(topo);
  // Software step costs on top of wire latency, as a calibration profile would give.
  const LatencyParams lat{Time::from_us(6), Time::from_us(0.6), Time::from_us(4)};
  int uncontended = 0;
  for (const auto& a : Registry::instance().all()) {
    if (!a->supports(CollectiveOp::all_reduce) || !a->available(topo)) continue;
    INFO(a->name() << " " << inst << " nodes=" << nodes << " bytes=" << bytes);
    const Request req{CollectiveOp::all_reduce, Bytes{bytes}, &topo, ring_order(topo), lat, 1};
    const CoarseSchedule s = a->phases(req);
    const Time expected = analytical.duration(s);
    const std::vector<sim::JobTiming> t = flow.run({job(s)});
    REQUIRE(t.size() == 1);
    if (shares_a_link(topo, s)) {
      CHECK((t[0].end - t[0].start).seconds() >= expected.seconds() * (1 - 1e-6));
    } else {
      CHECK(rel(expected, t[0].end - t[0].start) < 1e-6);
      ++uncontended;
    }
    // Host-staged routes (no GPUDirect: p3.16xlarge) cross a node's CPU uplinks on both legs, so a
    // folded route would cross two copies of one link: the engine then simulates every rank.
    const bool staged = !topo.instance().nic.gpudirect && nodes > 1;
    if (a->name() == "ring") CHECK(flow.last_stats().folded == (nodes > 1 && !staged));
    if (nodes > 1) {  // simulating every rank gives what one folded period gives
      flow.set_folding(false);
      const std::vector<sim::JobTiming> all = flow.run({job(s)});
      flow.set_folding(true);
      CHECK(rel(t[0].end, all[0].end) < 1e-6);
      CHECK(flow.last_stats().flows > t.size());
    }
  }
  // At least ring and one more are checked for equality on every case where no route is
  // host-staged (staged legs share the CPU uplinks, so every multi-node schedule shares a link).
  if (!staged_case(topo)) CHECK(uncontended >= 2);
}

TEST_CASE("flow equals analytical on a step-level ring schedule")
{
  Topology topo(instance("p4d.24xlarge"), 2, 8);
  sim::AnalyticalBackend analytical(topo);
  sim::FlowBackend flow(topo);
  const Request req{CollectiveOp::all_reduce, Bytes{16 * MiB}, &topo, ring_order(topo), {}, 1};
  const StepSchedule s = Registry::instance().get("ring").steps(req);
  CHECK(rel(analytical.run_steps(s), flow.run_steps(s)) < 1e-6);
}

TEST_CASE("p3.16xlarge: the 8 GPUs of a node share its one 25 Gbps NIC")
{
  const InstanceSpec& p3 = instance("p3.16xlarge");
  REQUIRE(p3.nic.count == 1);
  Topology topo(p3, 2, 8);
  std::vector<std::pair<VertexId, VertexId>> p;
  for (int g = 0; g < 8; ++g) p.emplace_back(topo.gpu(0, g), topo.gpu(1, g));
  const Bytes bytes{64 * MiB};
  sim::FlowBackend flow(topo);
  sim::AnalyticalBackend analytical(topo);
  const std::vector<sim::JobTiming> t = flow.run({job(pairs(p, bytes))});
  // Eight flows share the NIC (the PCIe links they also cross are wider): it carries all 8 x bytes.
  REQUIRE(p3.pcie.bytes_per_s > p3.nic.bandwidth.bytes_per_s);
  const Time expected = min_latency(topo, p) + transfer_time(Bytes{8 * bytes.n}, nic_rate(p3));
  CHECK(rel(expected, t[0].end) < 1e-6);
  // The analytical model charges the NIC all 8 flows' bytes too (AnalyticalBackend::shared_link_time).
  CHECK(rel(analytical.duration(pairs(p, bytes)), t[0].end) < 1e-6);
}

TEST_CASE("many-to-one: eight nodes send to one CPU server (parameter-server / Herring incast)")
{
  const InstanceSpec& inst = instance("p4d.24xlarge");
  Topology topo(inst, 9, 8);
  std::vector<std::pair<VertexId, VertexId>> p;
  for (int n = 1; n <= 8; ++n) p.emplace_back(topo.gpu(n, 0), topo.cpu(0, 0));
  const Bytes bytes{32 * MiB};
  sim::FlowBackend flow(topo);
  const std::vector<sim::JobTiming> t = flow.run({job(pairs(p, bytes))});
  CHECK_FALSE(flow.last_stats().folded);  // one receiver: not symmetric
  // All eight arrive through the server's NIC downlink.
  const Time expected = min_latency(topo, p) + transfer_time(Bytes{8 * bytes.n}, nic_rate(inst));
  CHECK(rel(expected, t[0].end) < 1e-6);
}

TEST_CASE("two buckets' all-reduces in flight at once share the NIC")
{
  const InstanceSpec& p3 = instance("p3.16xlarge");
  Topology topo(p3, 2, 8);
  const Request req{CollectiveOp::all_reduce, Bytes{64 * MiB}, &topo, ring_order(topo), {}, 1};
  const CoarseSchedule s = Registry::instance().get("ring").phases(req);
  sim::FlowBackend flow(topo);
  const Time alone = flow.run({job(s)})[0].end;
  const std::vector<sim::JobTiming> same_stream = flow.run({job(s, 0), job(s, 0)});
  const std::vector<sim::JobTiming> two_streams = flow.run({job(s, 0), job(s, 1)});
  CHECK(rel(same_stream[1].end, alone * 2) < 1e-6);
  // Hand-computed: the ring's inter-node flow carries 2(P-1)/P of the buffer; with two rings on
  // the NIC each gets half of it; the step latencies are paid once per ring, in parallel.
  const int P = 16;
  const Bytes per_flow{static_cast<std::uint64_t>(64 * MiB) * 2 * (P - 1) / P};
  Router router(topo);
  Time latency{0};
  for (const Flow& f : s.phases[0].flows) latency = max(latency, router.route(f.src, f.dst).latency);
  const Time expected = latency * s.phases[0].steps + transfer_time(Bytes{2 * per_flow.n}, nic_rate(p3));
  CHECK(rel(expected, two_streams[0].end) < 1e-6);
  CHECK(rel(expected, two_streams[1].end) < 1e-6);
  CHECK(two_streams[1].end < same_stream[1].end);
}

TEST_CASE("analytical: jobs on two streams share a link through the ledger, however many bookings it holds")
{
  // The ledger keeps each link's bookings in blocks with their span (AnalyticalBackend::LinkLedger)
  // and skips a block that cannot overlap a phase: 100 earlier jobs (4 blocks) must leave a late
  // job that overlaps only the 11th of them exactly as slow as that one job alone would.
  const InstanceSpec& p3 = instance("p3.16xlarge");
  Topology topo(p3, 2, 8);
  const CoarseSchedule s = pairs({{topo.gpu(0, 0), topo.gpu(1, 0)}}, Bytes{16 * MiB});
  sim::AnalyticalBackend net(topo);
  const Time alone = net.run({job(s)})[0].end;
  std::vector<sim::CollectiveJob> many;
  for (int k = 0; k < 100; ++k) many.push_back(job(s, 0, alone * (3 * k)));  // apart: they never meet
  const sim::CollectiveJob late = job(s, 1, alone * 30);  // starts with the 11th (k = 10)
  many.push_back(late);
  const sim::JobTiming with_many = net.run(many).back();
  const sim::JobTiming with_one = net.run({job(s, 0, alone * 30), late}).back();
  CHECK(with_one.end > alone * 31);  // it shared the NIC with the 11th job
  CHECK(with_many.start == with_one.start);
  CHECK(with_many.end == with_one.end);
}

TEST_CASE("transport: a per-flow cap limits one connection, many connections still fill the NIC")
{
  InstanceSpec p3 = instance("p3.16xlarge");
  REQUIRE(p3.nic.flow_cap.bytes_per_s == Approx(5e9 / 8));   // EC2: 5 Gbps per flow outside a placement group (the default)
  REQUIRE(p3.nic.flows_per_connection == 16);                // NCCL's socket defaults on AWS: 2 x 8
  const Bytes bytes{64 * MiB};
  auto one_pair = [&](const Topology& topo) { return std::vector<std::pair<VertexId, VertexId>>{{topo.gpu(0, 0), topo.gpu(1, 0)}}; };
  {
    // NCCL's 16 sockets x 5 Gbps exceed the 25 Gbps ENA: the NIC is the limit.
    Topology topo(p3, 2, 8);
    const auto p = one_pair(topo);
    const Time expected = min_latency(topo, p) + transfer_time(bytes, nic_rate(p3));
    CHECK(rel(expected, sim::AnalyticalBackend(topo).duration(pairs(p, bytes))) < 1e-6);
    CHECK(rel(expected, sim::FlowBackend(topo).run({job(pairs(p, bytes))})[0].end) < 1e-6);
  }
  p3.nic.flows_per_connection = 1;  // NCCL_NSOCKS_PERTHREAD=1, NCCL_SOCKET_NTHREADS=1
  Topology topo(p3, 2, 8);
  const auto p = one_pair(topo);
  // One socket: 5 Gbps, in both engines (SimGrid: a rate bound on the communication).
  const Time capped = min_latency(topo, p) + transfer_time(bytes, p3.nic.flow_cap);
  CHECK(rel(capped, sim::AnalyticalBackend(topo).duration(pairs(p, bytes))) < 1e-6);
  sim::FlowBackend flow(topo);
  CHECK(rel(capped, flow.run({job(pairs(p, bytes))})[0].end) < 1e-6);
  // Eight connections (one per GPU) share the NIC: together they fill it, as one cannot.
  std::vector<std::pair<VertexId, VertexId>> eight;
  for (int g = 0; g < 8; ++g) eight.emplace_back(topo.gpu(0, g), topo.gpu(1, g));
  const Time full = min_latency(topo, eight) + transfer_time(Bytes{8 * bytes.n}, nic_rate(p3));
  CHECK(rel(full, flow.run({job(pairs(eight, bytes))})[0].end) < 1e-5);  // SimGrid's solver precision
}

TEST_CASE("simulations in child processes: results and errors come back to the parent")
{
  CHECK(run_in_child([] { return std::string("result\0with nul", 15); }) == std::string("result\0with nul", 15));
  CHECK_THROWS_AS(run_in_child([]() -> std::string { throw UserError("bad input"); }), UserError);
  CHECK_THROWS_WITH(run_in_child([]() -> std::string { throw InternalError("broken"); }), Catch::Contains("broken"));
  // A child that dies without answering (as SimGrid does on an escaped exception) is an internal error.
  CHECK_THROWS_AS(run_in_child([]() -> std::string { std::_Exit(3); }), InternalError);
}

TEST_CASE("a child is never forked from a multi-threaded process: a library user's second thread is refused")
{
  CHECK_NOTHROW(run_in_child([] { return std::string("alone"); }));
  std::promise<void> release;
  std::thread other([f = release.get_future()]() mutable { f.wait(); });
  CHECK_THROWS_WITH(run_in_child([] { return std::string("never"); }),
                    Catch::Contains("single-threaded process") && Catch::Contains("2 threads"));
  release.set_value();
  other.join();
  CHECK(run_in_child([] { return std::string("alone again"); }) == "alone again");
}

TEST_CASE("the flow backend is reachable by name")
{
  const auto names = sim::engine_names();
  CHECK(std::find(names.begin(), names.end(), "flow") != names.end());
  Topology topo(instance("p4d.24xlarge"), 1, 8);
  CHECK(sim::make_backend(sim::parse_engine("flow"), topo)->name() == "flow");
}
