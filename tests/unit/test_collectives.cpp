// The algorithm library against the closed forms of docs/algorithms.md, over the whole registry:
// bytes per rank, NVLS, NIC-aware rings, NCCL's trees, SHARP and the shared-link bound. NCCL's
// latency table and protocol choice are in test_nccl_tuning.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/allreduce_tree.hpp"
#include "algorithms/common.hpp"
#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "support.hpp"
#include "sim/network/collective_model.hpp"
#include "sim/network/analytical.hpp"
#include "topology/rings.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;

namespace {

using test::instance;

std::map<VertexId, double> sent_per_device(const StepSchedule& s)
{
  std::map<VertexId, double> out;
  for (const Task& t : s.tasks)
    if (t.kind == TaskKind::send) out[t.src] += t.bytes.as_double();
  return out;
}

}  // namespace

TEST_CASE("every registered algorithm with channels, on NVLS and mesh machines: both granularities agree")
{
  const char* name = GENERATE("p5.48xlarge", "p3dn.24xlarge");
  const int nodes = GENERATE(1, 2, 3);
  const std::uint64_t bytes = GENERATE(std::uint64_t{4096}, std::uint64_t{48} * MiB + 7);
  Topology topo(instance(name), nodes, instance(name).gpus);
  sim::AnalyticalBackend net(topo);
  for (const auto& a : Registry::instance().all()) {
    if (!a->available(topo) || !a->supports(CollectiveOp::all_reduce)) continue;
    INFO(a->name() << " " << name << " nodes=" << nodes << " bytes=" << bytes);
    Request req{CollectiveOp::all_reduce, Bytes{bytes}, &topo, ring_order(topo), {}, sim::nccl_channels(topo)};
    const StepSchedule steps = a->steps(req);
    const CoarseSchedule coarse = a->phases(req);
    if (a->coarse_merges_nic_traffic() && nodes > 2) {  // the coarse form sees NIC sharing
      CHECK(total_sent(coarse) >= total_sent(steps));
      CHECK(net.duration(coarse).seconds() >= net.run_steps(steps).seconds() * (1 - 1e-6));
    } else {
      CHECK(total_sent(steps) == total_sent(coarse));
      // The step form prices every task alone; the coarse form also charges a phase's shared links
      // (AnalyticalBackend::shared_link_time): equal where no link is shared, never faster.
      if (net.shares_links(coarse)) CHECK(net.duration(coarse).seconds() >= net.run_steps(steps).seconds() * (1 - 1e-6) - 1e-8);
      else CHECK(net.run_steps(steps).seconds() == Approx(net.duration(coarse).seconds()).epsilon(1e-6).margin(1e-8));
    }
    // No send to itself (local reduce/copy tasks name one device), no task depending forward
    // (StepBuilder's invariant, checked independently).
    for (std::size_t i = 0; i < steps.tasks.size(); ++i) {
      if (steps.tasks[i].kind == TaskKind::send) CHECK(steps.tasks[i].src != steps.tasks[i].dst);
      else CHECK(steps.tasks[i].src == steps.tasks[i].dst);
      for (auto d : steps.tasks[i].deps) CHECK(d < i);
    }
  }
}

TEST_CASE("bytes per rank match docs/algorithms.md and the load is symmetric")
{
  const int nodes = GENERATE(1, 2, 4);
  Topology topo(instance("p4d.24xlarge"), nodes, 8);
  const double s = 8.0 * 1000 * 1000 + 24;  // divisible by 2^k: exact halving
  Request req{CollectiveOp::all_reduce, Bytes{static_cast<std::uint64_t>(s)}, &topo, ring_order(topo), {}, 1};
  const double p = static_cast<double>(req.ranks.size()), g = 8, n = nodes;
  const double ring_like = 2 * (p - 1) / p * s;
  for (const char* name : {"ring", "rhd", "direct"}) {
    INFO(name);
    const auto sent = sent_per_device(Registry::instance().get(name).steps(req));
    CHECK(sent.size() == req.ranks.size());
    for (auto [dev, b] : sent) CHECK(b == Approx(ring_like).margin(2 * p));
  }
  // Hierarchical: 2(G-1)/G x S inside the node per GPU; across nodes 2(N-1)/N x S/G per GPU
  // (p4d: two GPUs share each NIC, drawn as one flow carrying both shards).
  const StepSchedule h = Registry::instance().get("hierarchical").steps(req);
  std::map<VertexId, double> intra, inter;
  for (const Task& t : h.tasks)
    (topo.device(t.src).node == topo.device(t.dst).node ? intra : inter)[t.src] += t.bytes.as_double();
  for (auto [dev, b] : intra) CHECK(b == Approx(2 * (g - 1) / g * s).margin(2 * g));
  double network_total = 0;
  for (auto [dev, b] : inter) network_total += b;
  CHECK(network_total == Approx(n * g * 2 * (n - 1) / n * s / g).margin(4 * p));
  CHECK(inter.size() == static_cast<std::size_t>(nodes > 1 ? nodes * topo.instance().nic.count : 0));
}

TEST_CASE("nvls: (1 + 1/G) S / nvls efficiency per GPU port inside a node, only on NVLink SHARP machines")
{
  const auto& nvls = Registry::instance().get("nvls");
  CHECK_FALSE(nvls.available(Topology(instance("p4d.24xlarge"), 1, 8)));
  Topology topo(instance("p5.48xlarge"), 1, 8);
  REQUIRE(nvls.available(topo));
  const std::uint64_t s = 64 * MiB;
  Request req{CollectiveOp::all_reduce, Bytes{s}, &topo, ring_order(topo), {}, 1};
  // Multimem reduce: S out, S/G in; multicast store: S/G out, S in; at NCCL's NVLS efficiency 0.85.
  const double port = static_cast<double>(s) * (1 + 1.0 / 8) / 0.85;
  for (auto [dev, b] : sent_per_device(nvls.steps(req))) CHECK(b == Approx(port).epsilon(1e-6));
  // Against the ring's 2(G-1)/G x S per port.
  sim::AnalyticalBackend net(topo);
  const double t_nvls = net.duration(nvls.phases(req)).seconds();
  const double t_ring = net.duration(RingAllReduce().phases(req)).seconds();
  // Within 4%: the ring also pays 14 two-hop step latencies (~10 us of ~330 us), NVLS one.
  CHECK(t_ring / t_nvls == Approx(2.0 * 7 / 8 * static_cast<double>(s) / port).epsilon(0.04));
}

TEST_CASE("ring channels leave each node through different NICs")
{
  Topology topo(instance("p4d.24xlarge"), 2, 8);
  Request req{CollectiveOp::all_reduce, Bytes{MiB}, &topo, ring_order(topo), {}, 4};
  std::set<VertexId> nics;
  for (int c = 0; c < 4; ++c) {
    const auto ring = channel_ring(req, c, 4);
    const Device& last = topo.device(ring[7]);  // node 0's last rank sends to node 1
    nics.insert(topo.nic_of_gpu(last.node, last.index));
  }
  CHECK(nics.size() == 4);
}

TEST_CASE("tree: NCCL's double binary tree is two spanning trees, interior nodes of one are leaves of the other")
{
  for (int n : {2, 3, 4, 5, 8, 13, 16}) {
    INFO("n=" << n);
    for (auto parent : {btree_parent, dtree_parent}) {
      int roots = 0;
      for (int r = 0; r < n; ++r) {
        int p = parent(n, r), hops = 0;
        if (p < 0) ++roots;
        for (int x = r; parent(n, x) >= 0 && hops <= n; x = parent(n, x)) ++hops;  // reaches the root
        CHECK(hops < n);
      }
      CHECK(roots == 1);
    }
    if (n % 2 == 0) {  // mirrored trees: no rank is interior in both (NCCL's full-bandwidth property)
      std::vector<int> kids1(static_cast<std::size_t>(n)), kids2(static_cast<std::size_t>(n));
      for (int r = 0; r < n; ++r) {
        if (btree_parent(n, r) >= 0) ++kids1[static_cast<std::size_t>(btree_parent(n, r))];
        if (dtree_parent(n, r) >= 0) ++kids2[static_cast<std::size_t>(dtree_parent(n, r))];
      }
      for (int r = 0; r < n; ++r) CHECK((kids1[static_cast<std::size_t>(r)] == 0 || kids2[static_cast<std::size_t>(r)] == 0));
    }
  }
  // Hops: 2(G-1) in the node, 2 ceil(log2 N) across (tuning.cc's tree latency).
  Topology topo(instance("p4d.24xlarge"), 5, 8);
  Request req{CollectiveOp::all_reduce, Bytes{MiB}, &topo, ring_order(topo), {}, 1};
  const HopCount h = Registry::instance().get("tree").latency_hops(req);
  CHECK(h.intra == 14);
  CHECK(h.inter == 6);
}

TEST_CASE("sharp: only where the fabric reduces, each NIC sends its shard once, both granularities agree")
{
  const auto& sharp = Registry::instance().get("sharp");
  CHECK_FALSE(sharp.available(Topology(instance("dgx-h100"), 2, 8)));
  FabricSpec fabric;
  fabric.in_network_reduction = true;
  const int nodes = GENERATE(1, 2, 4, 16);
  Topology topo(instance("dgx-h100"), nodes, 8, fabric);
  REQUIRE(sharp.available(topo));
  const std::uint64_t s = 64 * MiB + 3;
  const Request req{CollectiveOp::all_reduce, Bytes{s}, &topo, ring_order(topo), {}, 1};
  const StepSchedule steps = sharp.steps(req);
  const CoarseSchedule coarse = sharp.phases(req);
  CHECK(total_sent(steps) == total_sent(coarse));
  sim::AnalyticalBackend net(topo);
  CHECK(net.run_steps(steps).seconds() == Approx(net.duration(coarse).seconds()).epsilon(1e-6).margin(1e-8));
  // Across the network each GPU (one NIC each) sends S/G once, whatever the node count.
  double inter = 0;
  for (const Task& t : steps.tasks)
    if (t.kind == TaskKind::send && topo.device(t.src).node != topo.device(t.dst).node) inter += t.bytes.as_double();
  CHECK(inter == Approx(nodes > 1 ? nodes * static_cast<double>(s) : 0).margin(16));
  const HopCount hops = sharp.latency_hops(req);
  CHECK(hops.inter == (nodes > 1 ? 2 : 0));
  CHECK(hops.intra == 14);
  // The ring over nodes sends 2(N-1)/N x S/G per NIC: sharp beats hierarchical across many nodes.
  if (nodes >= 4)
    CHECK(net.duration(coarse) < net.duration(Registry::instance().get("hierarchical").phases(req)));
}

TEST_CASE("NCCL's algorithms never load a node's link beyond their routes' bottleneck: the shared-link bound leaves them alone")
{
  // AnalyticalBackend::shared_link_time charges a phase the bytes of its busiest shared link. For
  // the algorithms NCCL runs, every catalog instance at 1-4 nodes, three sizes and the three
  // operations, no phase may take longer with the bound than its slowest flow alone: their
  // prices (and every NCCL validation figure) do not depend on it.
  int phases = 0;
  for (const InstanceSpec& inst : test::catalog().instances) {
    for (int nodes : {1, 2, 3, 4}) {
      const Topology topo(inst, nodes, inst.gpus);
      sim::AnalyticalBackend net(topo);
      for (const char* name : {"ring", "tree", "nvls", "sharp", "hierarchical"}) {
        const Algorithm* a = Registry::instance().find(name);
        if (a == nullptr || !a->available(topo)) continue;
        for (std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{1} * MiB, std::uint64_t{256} * MiB})
          for (CollectiveOp op : {CollectiveOp::all_reduce, CollectiveOp::reduce_scatter, CollectiveOp::all_gather}) {
            if (!a->supports(op)) continue;
            INFO(inst.name << " nodes=" << nodes << " " << name << " " << to_string(op) << " bytes=" << bytes);
            const Request req{op, Bytes{bytes}, &topo, ring_order(topo), {}, sim::nccl_channels(topo)};
            const CoarseSchedule c = a->phases(req);
            for (const Phase& p : c.phases) {
              Time slowest{0};
              for (const Flow& f : p.flows) {
                CoarseSchedule one = c;
                one.fixed_latency = Time{0};
                one.phases = {Phase{p.name, {f}, p.steps}};
                slowest = max(slowest, net.duration(one));
              }
              CHECK(net.shared_link_time(p, c).ps <= slowest.ps + slowest.ps / 1000000 + 1000);
              ++phases;
            }
          }
      }
    }
  }
  CHECK(phases > 400);
}
