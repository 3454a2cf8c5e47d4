// Issue 21 (speed at scale): the analytical backend's route classes and the NCCL schedules kept
// across the runs of one scenario (sim/network/shape_cache.hpp) change no result.
#include <catch2/catch.hpp>

#include "sim/network/analytical.hpp"
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
