#include <catch2/catch.hpp>
#include <map>
#include "support.hpp"

#include "app/input/catalog_loader.hpp"
#include "topology/rings.hpp"
#include "topology/routing.hpp"

using namespace ddpsim;

namespace {
using test::catalog;
}  // namespace

TEST_CASE("the catalog holds the instances FACTS.md lists")
{
  for (const char* name : {"p3.16xlarge", "p3dn.24xlarge", "p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge",
                           "p5en.48xlarge", "dgx1-v100", "dgx-a100", "dgx-h100"})
    CHECK(catalog().find(name) != nullptr);
  CHECK(catalog().find("ml.p3.16xlarge") == catalog().find("p3.16xlarge"));
  CHECK(catalog().find("p9.huge") == nullptr);
}

TEST_CASE("p3.16xlarge's cube-mesh gives every GPU six NVLink bricks")
{
  const InstanceSpec& p3 = *catalog().find("p3.16xlarge");
  std::vector<int> bricks(8, 0);
  for (const NvlinkPair& p : p3.nvlink_pairs) {
    bricks[p.a] += p.links;
    bricks[p.b] += p.links;
  }
  for (int b : bricks) CHECK(b == 6);
}

TEST_CASE("routes inside a p3.16xlarge use NVLink where it exists, PCIe and QPI otherwise")
{
  Topology topo(*catalog().find("p3.16xlarge"), 2, 8);
  Router router(topo);
  // GPU0-GPU3 is NV2: one direct hop at 50 GB/s.
  Route nv2 = router.route(topo.gpu(0, 0), topo.gpu(0, 3));
  REQUIRE(nv2.links.size() == 1);
  CHECK(nv2.bottleneck.bytes_per_s == Approx(50e9 * 0.80));  // achievable NVLink: 20 of 25 GB/s
  // GPU0-GPU1 is NV1: 25 GB/s.
  CHECK(router.route(topo.gpu(0, 0), topo.gpu(0, 1)).bottleneck.bytes_per_s == Approx(20e9));
  // GPU0-GPU5 has no NVLink: GPU -> PCIe switch -> CPU0 -> QPI -> CPU1 -> PCIe switch -> GPU, never via a GPU.
  Route sys = router.route(topo.gpu(0, 0), topo.gpu(0, 5));
  CHECK(sys.links.size() == 5);
  CHECK(sys.bottleneck.bytes_per_s == Approx(6e9));  // NCCL's QPI figure, already achievable
  for (EdgeId e : sys.links) CHECK(topo.link(e).cls != LinkClass::nvlink);
  // Across nodes the 25 Gbps NIC is the bottleneck, and the route is the same shape on every node.
  Route net = router.route(topo.gpu(0, 2), topo.gpu(1, 2));
  CHECK(net.bottleneck.bytes_per_s == Approx(25e9 / 8 * 0.990));  // TCP framing, 9001 B MTU
  Route back = router.route(topo.gpu(1, 2), topo.gpu(0, 2));
  CHECK(back.latency == net.latency);
  CHECK(back.links.size() == net.links.size());
}

TEST_CASE("the ring order on a cube-mesh stays on NVLink")
{
  Topology topo(*catalog().find("p3.16xlarge"), 1, 8);
  Router router(topo);
  std::vector<int> order = local_ring_order(topo, router);
  REQUIRE(order.size() == 8);
  for (std::size_t i = 0; i < order.size(); ++i) {
    Route r = router.route(topo.gpu(0, order[i]), topo.gpu(0, order[(i + 1) % 8]));
    CHECK(r.links.size() == 1);
    CHECK(topo.link(r.links[0]).cls == LinkClass::nvlink);
  }
}

TEST_CASE("NVSwitch nodes: any two GPUs are two NVSwitch hops apart, GPUs reach their own NIC")
{
  Topology topo(*catalog().find("p4d.24xlarge"), 3, 8);
  Router router(topo);
  Route r = router.route(topo.gpu(2, 1), topo.gpu(2, 6));
  CHECK(r.links.size() == 2);
  CHECK(r.bottleneck.bytes_per_s == Approx(240e9));  // 12 NVLink3 links, 20 of 25 GB/s each
  Route net = router.route(topo.gpu(0, 7), topo.gpu(2, 7));
  CHECK(net.bottleneck.bytes_per_s == Approx(12.5e9 * 0.971));
  CHECK(topo.device(topo.link(net.links[1]).from).index == 3);  // GPU 7 uses NIC 3 of 4
}

TEST_CASE("gpus_per_node selects the first GPUs of each node")
{
  Topology topo(*catalog().find("p3.16xlarge"), 2, 4);
  CHECK(topo.gpu_count() == 8);
  CHECK(ring_order(topo).size() == 8);
}

TEST_CASE("link efficiency: every link gets its class's achievable fraction of line rate")
{
  InstanceSpec p5 = *catalog().find("p5.48xlarge");
  // Sourced fractions (topology/catalog/instances.yaml): NVLink4 370 of 450 GB/s, PCIe 12 of 15.75,
  // EFA 97 % of line rate (measured with libfabric on p5, [efa]).
  CHECK(p5.efficiency.nvlink == Approx(0.822));
  CHECK(p5.efficiency.pcie == Approx(0.762));
  CHECK(p5.efficiency.nvls == Approx(0.85));
  Topology topo(p5, 2, 8);
  bool seen_pcie = false;
  for (std::size_t e = 0; e < topo.link_count(); ++e) {
    const Link& l = topo.link(static_cast<EdgeId>(e));
    if (l.cls == LinkClass::nvswitch) CHECK(l.bandwidth.bytes_per_s == Approx(450e9 * 0.822));
    if (l.cls == LinkClass::nic) CHECK(l.bandwidth.bytes_per_s == Approx(50e9 * 0.971));
    if (l.cls == LinkClass::pcie) {
      CHECK(l.bandwidth.bytes_per_s == Approx(63e9 * 0.762));
      seen_pcie = true;
    }
  }
  CHECK(seen_pcie);
  // An override (cluster.overrides.efficiency) reaches the links: line rate at 1.
  p5.efficiency.nvlink = 1;
  Topology line(p5, 1, 8);
  CHECK(Router(line).route(line.gpu(0, 0), line.gpu(0, 1)).bottleneck.bytes_per_s == Approx(450e9));
}

TEST_CASE("NIC-aware rings: a one-NIC node leaves and enters through the GPUs on the NIC's PCIe switch")
{
  for (const char* name : {"p3.16xlarge", "p3dn.24xlarge"}) {
    INFO(name);
    InstanceSpec spec = *catalog().find(name);
    spec.nic.count = 1;
    Topology topo(spec, 2, 8);
    Router router(topo);
    const std::vector<int> order = local_ring_order(topo, router);
    // The ring leaves node 0 at its last GPU and enters node 1 at its first: no QPI on the way.
    const Route exit = router.route(topo.gpu(0, order.back()), topo.gpu(1, order.front()));
    for (EdgeId e : exit.links) CHECK(topo.link(e).cls != LinkClass::cpu_interconnect);
    // The GPUs inside still form an NVLink path.
    for (std::size_t i = 0; i + 1 < order.size(); ++i) {
      const Route r = router.route(topo.gpu(0, order[i]), topo.gpu(0, order[i + 1]));
      REQUIRE(r.links.size() == 1);
      CHECK(topo.link(r.links[0]).cls == LinkClass::nvlink);
    }
  }
}

TEST_CASE("mesh rings: one node of a cube-mesh runs a ring per NVLink brick and direction")
{
  Topology topo(*catalog().find("p3.16xlarge"), 1, 8);
  const std::vector<std::vector<int>> rings = mesh_rings(topo);
  // Every directed brick once: 6 bricks per GPU (two NV2 peers, two NV1 peers) -> 6 rings.
  REQUIRE(rings.size() == 6);
  std::map<std::pair<int, int>, int> used;
  for (const auto& r : rings) {
    REQUIRE(r.size() == 8);
    for (std::size_t i = 0; i < r.size(); ++i) ++used[{r[i], r[(i + 1) % r.size()]}];
  }
  for (const NvlinkPair& p : topo.instance().nvlink_pairs) {
    CHECK(used[{p.a, p.b}] == p.links);
    CHECK(used[{p.b, p.a}] == p.links);
  }
  CHECK(used.size() == 2 * topo.instance().nvlink_pairs.size());  // no hop off NVLink
  // Not a mesh, or across nodes: none.
  CHECK(mesh_rings(Topology(*catalog().find("p4d.24xlarge"), 1, 8)).empty());
}
