// Issue 21 (speed at scale): the analytical backend's route classes, the NCCL schedules kept
// across the runs of one scenario (sim/network/shape_cache.hpp) and the flow engine's merged
// twin flows (sim/network/flow_merge.hpp) change no result.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "core/subprocess.hpp"

#include "sim/network/analytical.hpp"
#include "sim/network/flow_graph.hpp"
#include "sim/network/flow_merge.hpp"
#include "sim/network/shape_cache.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/study/knobs.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"
#include "topology/routing.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;
using test::instance;

namespace {

// Every GPU and CPU of every node prices a 3-step flow to every other exactly as its own route
// does (the route classes must merge only routes with the same latency, bottleneck and cap).
void check_every_pair(const Topology& topo, std::size_t max_classes)
{
  REQUIRE(topo.symmetry_periods() > 1);
  sim::AnalyticalBackend net(topo);
  const Router router(topo);
  std::vector<VertexId> ends;
  for (int n = 0; n < topo.nodes(); ++n) {
    for (int g = 0; g < topo.gpus_per_node(); ++g) ends.push_back(topo.gpu(n, g));
    for (int c = 0; c < topo.instance().cpu_sockets; ++c) ends.push_back(topo.cpu(n, c));
  }
  const Bytes bytes{3 * MiB};
  int checked = 0;
  for (VertexId s : ends)
    for (VertexId d : ends) {
      if (s == d) continue;
      algo::Phase ph{"one", {{algo::TaskKind::send, s, d, bytes, Time{0}}}, 3};
      const Route r = router.route(s, d);
      double bw = r.bottleneck.bytes_per_s;
      if (const double cap = connection_cap(topo, s, d); cap > 0) bw = std::min(bw, cap);
      const Time want = r.latency * 3 + transfer_time(bytes.as_double(), Bandwidth{bw});
      CHECK(net.duration(algo::CoarseSchedule{{ph}, Time{0}}) == want);
      ++checked;
    }
  CHECK(checked == static_cast<int>(ends.size() * (ends.size() - 1)));
  const auto routes = net.priced_routes();
  REQUIRE(routes.has_value());
  CHECK(routes->size() <= max_classes);  // far fewer than the pairs: classes did merge
}

}  // namespace

TEST_CASE("route classes: every pair priced as its own route on single-switch, leaf/spine and rail fabrics")
{
  const InstanceSpec& p4d = instance("p4d.24xlarge");
  // GPUs and CPUs of one node: 10 ends, two relations (same node, other node).
  check_every_pair(Topology(p4d, 4, 8), 2 * 10 * 10);
  FabricSpec leaf;
  leaf.kind = FabricKind::leaf_spine;
  leaf.nodes_per_leaf = 2;
  leaf.oversubscription = 2;
  check_every_pair(Topology(p4d, 6, 8, leaf), 2 * 20 * 20);
  FabricSpec rail;
  rail.kind = FabricKind::rail;
  check_every_pair(Topology(p4d, 3, 8, rail), 2 * 10 * 10);
  // Host-staged legs and a per-connection cap (p3dn over TCP sockets).
  InstanceSpec p3dn = instance("p3dn.24xlarge");
  TransportSpec t;
  t.software.aws_ofi_nccl = "none";
  apply_transport(p3dn, t);
  REQUIRE(p3dn.nic.flow_cap.bytes_per_s > 0);
  check_every_pair(Topology(p3dn, 3, 8), 2 * 10 * 10);
}

namespace {

sim::ScenarioSpec resnet50(const char* inst, int nodes)
{
  sim::ScenarioSpec s;
  s.name = "shapes";
  s.cluster.instance = instance(inst);
  s.cluster.nodes = {nodes};
  s.model = sim::make_resnet50();
  s.training.batch_per_gpu = 32;
  s.training.precision = Precision::fp32;
  s.training.bucket_cap = Bytes{25 * MiB};
  s.training.steps = 1;
  return s;
}

void check_same(const sim::ScenarioReport& a, const sim::ScenarioReport& b)
{
  REQUIRE(a.results.size() == b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    CHECK(a.results[i].step_time_s == b.results[i].step_time_s);
    REQUIRE(a.results[i].buckets.size() == b.results[i].buckets.size());
    for (std::size_t k = 0; k < a.results[i].buckets.size(); ++k) {
      CHECK(a.results[i].buckets[k].algorithm == b.results[i].buckets[k].algorithm);
      CHECK(a.results[i].buckets[k].protocol == b.results[i].buckets[k].protocol);
      CHECK(a.results[i].buckets[k].end_s == b.results[i].buckets[k].end_s);
    }
  }
}

}  // namespace

TEST_CASE("shape cache: runs that differ in latencies reuse NCCL schedules and get the uncached results")
{
  const sim::ScenarioSpec base = resnet50("p4d.24xlarge", 4);
  sim::RunOptions cached;
  cached.shapes = std::make_shared<sim::ShapeCache>();
  check_same(sim::run_scenario(base, cached), sim::run_scenario(base));
  const std::shared_ptr<sim::ShapeScope> scope = cached.shapes->scope("4x8/pytorch-ddp");
  REQUIRE_FALSE(scope->shapes.empty());
  CHECK(scope->reused == 0);

  // Other NIC, NVLink and PCIe latencies (an interval sample): the schedules are reused.
  sim::ScenarioSpec sample = base;
  sim::apply("network_latency", sample, 2 * sample.cluster.instance.nic.latency.seconds());
  sim::apply("nvlink_latency", sample, 0.5 * sample.cluster.instance.nvlink_latency.seconds());
  sim::apply("pcie_latency", sample, 1.7 * sample.cluster.instance.pcie_latency.seconds());
  const sim::ScenarioReport with = sim::run_scenario(sample, cached);
  CHECK(scope->reused > 0);
  check_same(with, sim::run_scenario(sample));
  CHECK(with.results.front().buckets.back().end_s != sim::run_scenario(base).results.front().buckets.back().end_s);

  // An NVLink hop slower than the PCIe detour moves the node's routes off NVSwitch: the rank
  // order or the bottlenecks change, so nothing may be reused; the results are the uncached ones.
  sim::ScenarioSpec detour = base;
  sim::apply("nvlink_latency", detour, 0.5);
  const std::size_t before = scope->reused;
  check_same(sim::run_scenario(detour, cached), sim::run_scenario(detour));
  CHECK(scope->reused == before);
}

TEST_CASE("shape cache: one node of an NVLink mesh (a ring per brick) reuses its schedules exactly")
{
  sim::ScenarioSpec base = resnet50("p3.16xlarge", 1);
  base.cluster.nodes = {1, 2};
  sim::RunOptions cached;
  cached.shapes = std::make_shared<sim::ShapeCache>();
  check_same(sim::run_scenario(base, cached), sim::run_scenario(base));
  sim::ScenarioSpec sample = base;
  sim::apply("nvlink_latency", sample, 1.9 * sample.cluster.instance.nvlink_latency.seconds());
  sim::apply("pcie_latency", sample, 0.6 * sample.cluster.instance.pcie_latency.seconds());
  check_same(sim::run_scenario(sample, cached), sim::run_scenario(sample));
  CHECK(cached.shapes->scope("1x8/pytorch-ddp")->reused > 0);
  CHECK_FALSE(cached.shapes->scope("1x8/pytorch-ddp")->channel_orders.empty());  // the mesh's rings
}

namespace {

// run_flow_graph in a child process (one SimGrid engine per process), completion times back.
std::vector<double> simulate(const sim::FlowGraph& g)
{
  const std::string s = run_in_child([&] {
    const std::vector<double> d = sim::run_flow_graph(g);
    return std::string(reinterpret_cast<const char*>(d.data()), d.size() * sizeof(double));
  });
  std::vector<double> out(s.size() / sizeof(double));
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

}  // namespace

TEST_CASE("flow merge: twins alone on their links share one comm and finish at the same instants, bit for bit")
{
  sim::FlowGraph g;
  for (double bw : {10e9, 25e9, 25e9, 10e9, 10e9, 40e9, 10e9}) g.links.push_back({bw, 0.0, false});
  g.links.push_back({1e18, 2e-6, true});  // 7: a delay link
  g.links.push_back({10e9, 0.0, false});  // 8
  // Routes 0, 1, 2 and 6: bottleneck 10 GB/s over different links; 3 and 4 share link 6; 5 a delay.
  g.routes = {{0, 1}, {2, 3}, {4, 5}, {6}, {6}, {7}, {8}};
  g.items.push_back({5, 0, {}});                   // 0: a delay
  g.items.push_back({0, 1 << 20, {0}});            // 1: shares route 0 with 4
  g.items.push_back({1, 1 << 20, {0}});            // 2: alone, 10 GB/s
  g.items.push_back({2, 1 << 20, {0}});            // 3: alone, 10 GB/s: twin of 2
  g.items.push_back({0, 3 << 20, {0}});            // 4: route 0 again: shares with 1
  g.items.push_back({3, 1 << 20, {0}});            // 5: shares link 6 with 6
  g.items.push_back({4, 1 << 20, {0}});            // 6
  g.items.push_back({6, 1 << 20, {}});             // 7: alone, other deps: not a twin of 2
  g.items.push_back({-1, 0, {1, 2, 3, 4, 5, 6, 7}});  // 8: the phase's end
  const std::vector<double> before = simulate(g);
  std::vector<std::uint32_t> scratch;
  sim::FlowGraph merged = g;
  // Items 1 and 4 share route 0, so neither is alone; 2 and 3 are twins (same deps, bytes and
  // bottleneck over different links), 7 has other deps.
  CHECK(sim::merge_isolated(merged, {1, 2, 3, 4, 5, 6, 7}, scratch) == 1);
  CHECK(merged.items[3].route == -1);
  CHECK(merged.items[3].deps == std::vector<std::uint32_t>{2});
  CHECK(merged.items[2].route == 1);
  CHECK(std::all_of(scratch.begin(), scratch.end(), [](std::uint32_t c) { return c == 0; }));
  const std::vector<double> after = simulate(merged);
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < before.size(); ++i) CHECK(after[i] == before[i]);
  CHECK(before[3] == before[2]);
  CHECK(before[5] > before[2]);  // shared link 6 (10 GB/s) halves 5's rate
}
