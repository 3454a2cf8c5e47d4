// Degraded links (what-if, topology/degraded.cpp): NIC and spine uplinks below their rate, NVLink
// lanes lost, routes recomputed around a link that is down, and both engines seeing it.
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/flow_backend.hpp"
#include "support.hpp"
#include "topology/routing.hpp"

using namespace ddpsim;

namespace {

FabricSpec with(std::vector<Degradation> d, FabricSpec f = {})
{
  f.degraded = std::move(d);
  return f;
}

Degradation nic(int node, double rate)
{
  Degradation d;
  d.kind = DegradedKind::nic;
  d.node = node;
  d.rate = rate;
  return d;
}

// Every GPU g of every node sends to GPU g of the next node (eight inter-node rings at once).
algo::CoarseSchedule rings_over_nodes(const Topology& topo, Bytes bytes)
{
  algo::Phase ph{"rings", {}, 1};
  for (int n = 0; n < topo.nodes(); ++n)
    for (int g = 0; g < topo.gpus_per_node(); ++g)
      ph.flows.push_back({algo::TaskKind::send, topo.gpu(n, g), topo.gpu((n + 1) % topo.nodes(), g), bytes, Time{0}});
  return algo::CoarseSchedule{{ph}, Time{0}};
}

}  // namespace

TEST_CASE("a NIC at half rate: its links halve, nothing else changes, symmetry is off", "[degraded]")
{
  const InstanceSpec& inst = test::instance("p4d.24xlarge");
  const Topology healthy(inst, 4, 8), slow(inst, 4, 8, with({nic(2, 0.5)}));
  REQUIRE(healthy.link_count() == slow.link_count());
  int changed = 0;
  for (EdgeId e = 0; e < slow.link_count(); ++e)
    if (slow.link(e).bandwidth != healthy.link(e).bandwidth) {
      ++changed;
      CHECK(slow.link(e).bandwidth.bytes_per_s == Approx(healthy.link(e).bandwidth.bytes_per_s / 2));
      CHECK(slow.link(e).cls == LinkClass::nic);
    }
  CHECK(changed == 2 * inst.nic.count);  // both directions of node 2's four NIC uplinks
  CHECK(healthy.symmetry_periods() == 4);
  CHECK(slow.symmetry_periods() == 1);
  // Hand computation: node 2's route out is bottlenecked at min(PCIe, NIC / 2).
  const Route r = Router(slow).route(slow.gpu(2, 0), slow.gpu(3, 0));
  // Achievable rates: line rate x the link class's catalog efficiency (docs/model.md).
  CHECK(r.bottleneck.bytes_per_s == Approx(std::min(inst.pcie.bytes_per_s * inst.efficiency.pcie,
                                                    inst.nic.bandwidth.bytes_per_s * inst.efficiency.nic / 2)));
  // A node beyond the topology is skipped (a smaller configuration of the same scenario).
  CHECK(Topology(inst, 2, 8, with({nic(2, 0.5)})).symmetry_periods() == 2);
}

TEST_CASE("both engines see a degraded NIC, and the flow engine simulates every rank", "[degraded]")
{
  const InstanceSpec& inst = test::instance("p4d.24xlarge");
  const Bytes bytes{64 * MiB};
  const Topology healthy(inst, 4, 8), slow(inst, 4, 8, with({nic(1, 0.25)}));
  sim::FlowBackend f_healthy(healthy), f_slow(slow);
  const Time th = f_healthy.run({{Time{0}, 0, rings_over_nodes(healthy, bytes), "r"}})[0].end;
  const Time ts = f_slow.run({{Time{0}, 0, rings_over_nodes(slow, bytes), "r"}})[0].end;
  CHECK(f_healthy.last_stats().folded);
  CHECK_FALSE(f_slow.last_stats().folded);
  // Node 1's 8 GPUs share 4 NICs at a quarter rate (two flows per NIC): bytes / (NIC / 4 / 2).
  const Time lat = Router(slow).route(slow.gpu(1, 0), slow.gpu(2, 0)).latency;
  // Achievable rate: line rate x the NIC's catalog efficiency (docs/model.md).
  const double nic = inst.nic.bandwidth.bytes_per_s * inst.efficiency.nic;
  const double share = nic / 4 / 2;
  CHECK(ts.seconds() == Approx(lat.seconds() + bytes.as_double() / share).epsilon(1e-6));
  CHECK(ts > th);
  // The analytical engine charges the busiest shared link all its flows' bytes: the two flows on
  // the slow NIC (AnalyticalBackend::shared_link_time), the same time as the flow engine here.
  sim::AnalyticalBackend a_slow(slow);
  CHECK(a_slow.duration(rings_over_nodes(slow, bytes)).seconds() == Approx(ts.seconds()).epsilon(1e-6));
}

TEST_CASE("an NVLink with every lane down: routes go around it on that node only", "[degraded]")
{
  const InstanceSpec& inst = test::instance("p3.16xlarge");
  Degradation d;
  d.kind = DegradedKind::nvlink;
  d.node = 1;
  d.gpu_a = 0;
  d.gpu_b = 1;  // a one-lane pair of the cube mesh
  d.lanes_down = 1;
  const Topology topo(inst, 2, 8, with({d}));
  const Router router(topo);
  const Route n0 = router.route(topo.gpu(0, 0), topo.gpu(0, 1));
  const Route n1 = router.route(topo.gpu(1, 0), topo.gpu(1, 1));
  REQUIRE(n0.links.size() == 1);
  CHECK(topo.link(n0.links[0]).cls == LinkClass::nvlink);
  CHECK(n1.links.size() > 1);  // recomputed on the graph: over another GPU's lane is not allowed, so PCIe
  for (EdgeId e : n1.links) CHECK_FALSE(topo.link(e).down);
  CHECK(n1.bottleneck.bytes_per_s < n0.bottleneck.bytes_per_s);
  CHECK_FALSE(topo.node_regular(1));
  CHECK(topo.node_regular(0));
  // One of two lanes of pair (0, 3) down: half its bandwidth.
  d.gpu_b = 3;
  const Topology half(inst, 2, 8, with({d}));
  const Route r = Router(half).route(half.gpu(1, 0), half.gpu(1, 3));
  CHECK(r.bottleneck.bytes_per_s == Approx(inst.nvlink_per_link.bytes_per_s * inst.efficiency.nvlink));
}

TEST_CASE("NVSwitch port lanes and spine uplinks", "[degraded]")
{
  const InstanceSpec& inst = test::instance("p4d.24xlarge");
  Degradation d;
  d.kind = DegradedKind::nvlink;
  d.node = 0;
  d.gpu_a = 2;
  d.lanes_down = 3;  // of 12 lanes of 25 GB/s on an A100
  const Topology topo(inst, 1, 8, with({d}));
  const Route r = Router(topo).route(topo.gpu(0, 2), topo.gpu(0, 5));
  CHECK(r.bottleneck.bytes_per_s == Approx(inst.nvswitch_per_gpu.bytes_per_s * inst.efficiency.nvlink * 9 / 12));
  d.lanes_down = 12;
  CHECK_THROWS_AS(Topology(inst, 1, 8, with({d})), UserError);

  FabricSpec ls;
  ls.kind = FabricKind::leaf_spine;
  ls.nodes_per_leaf = 2;
  ls.spine_uplinks = 4;
  Degradation s;
  s.kind = DegradedKind::spine_uplink;
  s.leaf = 1;
  s.uplinks_down = 1;
  const Topology h(inst, 4, 8, ls), t(inst, 4, 8, with({s}, ls));
  const Route rh = Router(h).route(h.gpu(2, 0), h.gpu(0, 0)), rt = Router(t).route(t.gpu(2, 0), t.gpu(0, 0));
  bool seen = false;
  for (std::size_t i = 0; i < rt.links.size(); ++i)
    if (t.link(rt.links[i]).cls == LinkClass::fabric && t.device(t.link(rt.links[i]).from).index == 1) {
      CHECK(t.link(rt.links[i]).bandwidth.bytes_per_s == Approx(h.link(rh.links[i]).bandwidth.bytes_per_s * 3 / 4));
      seen = true;
    }
  CHECK(seen);
  ls.spine_uplinks = 1;
  CHECK_THROWS_AS(Topology(inst, 4, 8, with({s}, ls)), UserError);
}

TEST_CASE("cluster.degraded YAML: parsed, checked against the instance", "[degraded]")
{
  const std::string head = "name: t\ncluster:\n  instance: p3.16xlarge\n  nodes: [2]\n";
  const std::string tail = "model: {preset: resnet50}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}\n";
  auto s = app::parse_scenario("s.yaml",
                               head + "  degraded: [{link: nic, node: 1, rate: 0.5}, {link: nvlink, node: 0, gpus: [0, 3], lanes_down: 1}]\n" + tail,
                               test::catalog());
  REQUIRE(s.cluster.fabric.degraded.size() == 2);
  CHECK(s.cluster.fabric.degraded[0].rate == 0.5);
  CHECK(s.cluster.fabric.degraded[1].gpu_b == 3);
  auto error_of = [&](const std::string& deg) -> std::string {
    try {
      app::parse_scenario("s.yaml", head + "  degraded: " + deg + "\n" + tail, test::catalog());
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(error_of("[{link: nvlink, node: 0, gpus: [0, 5], lanes_down: 1}]"), Catch::Contains("no NVLink between them"));
  CHECK_THAT(error_of("[{link: spine_uplink, leaf: 0, down: true}]"), Catch::Contains("leaf_spine"));
  CHECK_THAT(error_of("[{link: nic, node: 0, rate: 0}]"), Catch::Contains("cluster.degraded[0].rate"));
  CHECK_THAT(error_of("[{link: nci, node: 0}]"), Catch::Contains("s.yaml:5:") && Catch::Contains("nic"));
}
