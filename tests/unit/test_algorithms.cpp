// Invariants over every registered algorithm, and the closed forms of docs/algorithms.md.
#include <catch2/catch.hpp>
#include <map>

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "support.hpp"
#include "sim/network/analytical.hpp"
#include "topology/rings.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;

namespace {

using test::instance;

Request make_request(const Topology& topo, CollectiveOp op, std::uint64_t bytes)
{
  return Request{op, Bytes{bytes}, &topo, ring_order(topo), {}, 1, nullptr};
}

}  // namespace

TEST_CASE("every registered algorithm: same bytes at both granularities, same time where no link is shared")
{
  const auto nodes = GENERATE(1, 2, 4);
  const auto bytes = GENERATE(std::uint64_t{8}, std::uint64_t{1000003}, std::uint64_t{64} * MiB);
  Topology topo(instance("p4d.24xlarge"), nodes, 8);
  sim::AnalyticalBackend net(topo);
  for (const auto& algo : Registry::instance().all()) {
    if (!algo->available(topo)) continue;
    for (CollectiveOp op : {CollectiveOp::all_reduce, CollectiveOp::reduce_scatter, CollectiveOp::all_gather}) {
      if (!algo->supports(op)) continue;
      INFO(algo->name() << " " << to_string(op) << " nodes=" << nodes << " bytes=" << bytes);
      Request req = make_request(topo, op, bytes);
      StepSchedule steps = algo->steps(req);
      CoarseSchedule coarse = algo->phases(req);
      // NVSwitch nodes: every ring edge is uncontended in the analytical model.
      const double t_steps = net.run_steps(steps).seconds();
      const double t_coarse = net.duration(coarse).seconds();
      if (algo->coarse_merges_nic_traffic() && nodes > 2) {  // the coarse form sees NIC sharing
        CHECK(total_sent(coarse) >= total_sent(steps));
        CHECK(t_coarse >= t_steps * (1 - 1e-6));
        continue;
      }
      CHECK(total_sent(steps) == total_sent(coarse));
      // A phase whose flows share a link of a node (two GPUs on one PCIe switch, two per NIC)
      // costs at least the bytes that link carries: the coarse form charges it, the step form
      // prices each task alone.
      if (algo->name() == "ring") CHECK_FALSE(net.shares_links(coarse));  // one flow per link
      if (net.shares_links(coarse)) {
        CHECK(t_coarse >= t_steps * (1 - 1e-6) - 1e-8);
        continue;
      }
      // Whole-byte chunks: a step carries the larger chunk, the phase their sum (< 10 ns apart).
      CHECK(t_steps == Approx(t_coarse).epsilon(1e-6).margin(1e-8));
    }
  }
}

TEST_CASE("ring all-reduce: each rank sends 2(P-1)/P x S and ends with every chunk reduced")
{
  const int nodes = GENERATE(1, 3);
  Topology topo(instance("p3dn.24xlarge"), nodes, 8);
  const std::uint64_t s = 10'000'019;  // not a multiple of P
  Request req = make_request(topo, CollectiveOp::all_reduce, s);
  const int p = static_cast<int>(req.ranks.size());
  StepSchedule sched = RingAllReduce().steps(req);
  std::map<VertexId, std::uint64_t> sent;
  for (const Task& t : sched.tasks) sent[t.src] += t.bytes.n;
  for (auto [gpu, b] : sent) {
    const double expected = 2.0 * (p - 1) / p * static_cast<double>(s);
    CHECK(static_cast<double>(b) == Approx(expected).margin(2.0 * p));
  }
  // Simulate the data: each rank holds P chunks with a bitmask of contributions; the reduce-scatter
  // half ORs masks in, the all-gather half copies. Every rank must end with every bit of every chunk.
  std::vector<std::vector<std::uint64_t>> have(static_cast<std::size_t>(p), std::vector<std::uint64_t>(static_cast<std::size_t>(p)));
  std::map<VertexId, int> rank_of;
  for (int r = 0; r < p; ++r) {
    rank_of[req.ranks[static_cast<std::size_t>(r)]] = r;
    for (int c = 0; c < p; ++c) have[r][c] = 1ull << r;
  }
  for (int k = 0; k < 2 * (p - 1); ++k) {
    auto snapshot = have;
    for (int r = 0; r < p; ++r) {
      const Task& t = sched.tasks[static_cast<std::size_t>(k * p + r)];
      const int dst = rank_of[t.dst];
      const int chunk = ((r - k) % p + p) % p;
      if (k < p - 1) have[dst][chunk] |= snapshot[r][chunk];
      else have[dst][chunk] = snapshot[r][chunk];
    }
  }
  const std::uint64_t all = p == 64 ? ~0ull : (1ull << p) - 1;
  for (int r = 0; r < p; ++r)
    for (int c = 0; c < p; ++c) CHECK(have[r][c] == all);
}

TEST_CASE("property: ring time never decreases with size and never beats the bandwidth bound")
{
  const char* name = GENERATE("p3.16xlarge", "p4d.24xlarge", "p5.48xlarge");
  const int nodes = GENERATE(1, 2, 8);
  Topology topo(instance(name), nodes, 8);
  sim::AnalyticalBackend net(topo);
  const RingAllReduce ring;
  const std::vector<VertexId> ranks = ring_order(topo);
  const double p = static_cast<double>(ranks.size());
  // Slowest link any ring edge crosses.
  Router router(topo);
  double bottleneck = 1e300;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    bottleneck = std::min(bottleneck, router.route(ranks[i], ranks[(i + 1) % ranks.size()]).bottleneck.bytes_per_s);
  double previous = 0;
  std::uint64_t seed = 12345;
  for (int i = 0; i < 40; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;  // fixed LCG: reproducible sizes
    const std::uint64_t bytes = (std::uint64_t{1} << (i % 34)) + (seed >> 44);
    Request req{CollectiveOp::all_reduce, Bytes{bytes}, &topo, ranks, {}, 1};
    const double t = net.duration(ring.phases(req)).seconds();
    CHECK(t >= 2 * (p - 1) / p * static_cast<double>(bytes) / bottleneck * (1 - 1e-9));
    (void)previous;
  }
  for (std::uint64_t bytes = 8; bytes <= (std::uint64_t{1} << 33); bytes *= 2) {
    Request req{CollectiveOp::all_reduce, Bytes{bytes}, &topo, ranks, {}, 1};
    const double t = net.duration(ring.phases(req)).seconds();
    CHECK(t >= previous);
    previous = t;
  }
}

TEST_CASE("the registry rejects unknown names with the list of valid ones")
{
  CHECK(Registry::instance().find("ring") != nullptr);
  CHECK_THROWS_WITH(Registry::instance().get("rnig"), Catch::Contains("valid: ") && Catch::Contains("ring"));
}
