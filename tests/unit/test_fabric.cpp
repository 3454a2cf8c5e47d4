// Fabrics between nodes: routes through leaf/spine and rail layouts, symmetry periods, and the
// 2:1 oversubscribed leaf/spine slowing inter-node rings (hand-computed max-min share).
#include <catch2/catch.hpp>

#include "app/input/catalog_loader.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/flow_backend.hpp"
#include "topology/rings.hpp"
#include "topology/routing.hpp"
#include "algorithms/registry.hpp"

using namespace ddpsim;

namespace {
const InstanceSpec& p4d()
{
  static const app::Catalog c = app::builtin_catalog();
  return *c.find("p4d.24xlarge");
}

FabricSpec leaf_spine(int per_leaf, double ratio)
{
  FabricSpec f;
  f.kind = FabricKind::leaf_spine;
  f.nodes_per_leaf = per_leaf;
  f.oversubscription = ratio;
  f.switch_latency = Time::from_us(0.5);
  return f;
}

// Every GPU g of every node sends to GPU g of the next node: eight inter-node rings at once.
algo::CoarseSchedule rings_over_nodes(const Topology& topo, Bytes bytes)
{
  algo::Phase ph{"rings", {}, 1};
  for (int n = 0; n < topo.nodes(); ++n)
    for (int g = 0; g < topo.gpus_per_node(); ++g)
      ph.flows.push_back({algo::TaskKind::send, topo.gpu(n, g), topo.gpu((n + 1) % topo.nodes(), g), bytes, Time{0}});
  return algo::CoarseSchedule{{ph}, Time{0}};
}
}  // namespace

TEST_CASE("leaf/spine routes cross the spine only between leaves")
{
  Topology topo(p4d(), 4, 8, leaf_spine(2, 2));
  Router router(topo);
  const Route same = router.route(topo.gpu(0, 0), topo.gpu(1, 0));
  const Route cross = router.route(topo.gpu(1, 0), topo.gpu(2, 0));
  CHECK(cross.links.size() == same.links.size() + 2);
  CHECK(cross.latency == same.latency + Time::from_us(1.0));
  CHECK(topo.period_nodes() == 2);
  CHECK(topo.symmetry_periods() == 2);
  CHECK(Topology(p4d(), 5, 8, leaf_spine(2, 2)).symmetry_periods() == 1);  // a partial leaf
}

TEST_CASE("rail fabric: same-rail traffic stays on its rail switch")
{
  FabricSpec f;
  f.kind = FabricKind::rail;
  Topology topo(p4d(), 2, 8, f);
  Router router(topo);
  const Route same = router.route(topo.gpu(0, 0), topo.gpu(1, 0));  // NIC 0 to NIC 0
  const Route cross = router.route(topo.gpu(0, 0), topo.gpu(1, 7));  // NIC 0 to NIC 3
  CHECK(cross.links.size() == same.links.size() + 2);
}

TEST_CASE("a 2:1 oversubscribed leaf/spine halves inter-node ring bandwidth")
{
  const Bytes bytes{64 * MiB};
  const InstanceSpec& inst = p4d();
  // One node per leaf: every ring edge crosses the spine.
  Topology full(inst, 4, 8, leaf_spine(1, 1));
  Topology over(inst, 4, 8, leaf_spine(1, 2));
  sim::FlowBackend flow_full(full), flow_over(over);
  const Time t_full = flow_full.run({{Time{0}, 0, rings_over_nodes(full, bytes), "r"}})[0].end;
  const Time t_over = flow_over.run({{Time{0}, 0, rings_over_nodes(over, bytes), "r"}})[0].end;
  CHECK(flow_over.last_stats().folded);
  Router router(over);
  const Time lat = router.route(over.gpu(0, 0), over.gpu(1, 0)).latency;
  // Non-blocking: two GPUs per NIC, each gets half a NIC.
  const double nic = inst.nic.bandwidth.bytes_per_s * inst.efficiency.nic;  // achievable
  CHECK(t_full.seconds() == Approx(lat.seconds() + static_cast<double>(bytes.n) / (nic / 2)).epsilon(1e-6));
  // 2:1: the leaf uplink is 4 NICs / 2, shared by the node's 8 outgoing flows.
  const double uplink = nic * inst.nic.count / 2;
  CHECK(t_over.seconds() == Approx(lat.seconds() + static_cast<double>(bytes.n) / (uplink / 8)).epsilon(1e-6));
  // The analytical model sees the same time on both: it cannot see the sharing.
  sim::AnalyticalBackend a_full(full), a_over(over);
  CHECK(a_full.duration(rings_over_nodes(full, bytes)) == a_over.duration(rings_over_nodes(over, bytes)));
}

TEST_CASE("Herring's all-to-all rounds load an oversubscribed spine, a non-blocking fabric does not slow them")
{
  // 32 nodes, 8 per leaf. Spine uplink per leaf at 16:1: 8 nodes x 4 NICs x 12.5 GB/s / 16 =
  // 25 GB/s; in round k = 8 every one of a leaf's 16 server lanes (2 sockets x 8 nodes) crosses
  // it, so that round alone takes 16 x its bytes / 25 GB/s instead of its bytes / 12.5 GB/s.
  const algo::Algorithm& herring = algo::Registry::instance().get("herring");
  auto flow_time = [&](const FabricSpec& f) {
    Topology topo(p4d(), 32, 8, f);
    const algo::Request req{algo::CollectiveOp::all_reduce, Bytes{64 * MiB}, &topo, ring_order(topo), {}, 1};
    sim::FlowBackend flow(topo);
    const auto t = flow.run({{Time{0}, 0, herring.phases(req), "herring"}}).at(0);
    return (t.end - t.start).seconds();
  };
  const double open = flow_time(FabricSpec{});
  const double thin = flow_time(leaf_spine(8, 16));
  const double mild = flow_time(leaf_spine(8, 1));
  CHECK(mild == Approx(open).epsilon(0.02));  // 1:1 leaf/spine: only the extra switch hops differ
  CHECK(thin > 2 * open);
}
