// Data-level check of every registered algorithm's step schedule (tests/unit/data_check.hpp):
// not how many bytes move, but which bytes and whose contributions, so that every rank ends with
// the reduced (or gathered, or broadcast) buffer, each contribution counted exactly once.
#include <catch2/catch.hpp>
#include <algorithm>
#include <map>
#include <string>

#include "algorithms/common.hpp"
#include "algorithms/registry.hpp"
#include "core/error.hpp"
#include "data_check.hpp"
#include "support.hpp"
#include "topology/rings.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;

namespace {

using test::check_data;

// Step schedules that draw load for the analytical backend rather than the data's path (each
// algorithm's header says why); the data check does not apply to them. "" when it does.
std::string drawing(const Algorithm& a, const Request& req)
{
  const auto nodes = ranks_by_node(req);
  const bool several_nodes = nodes.size() > 1;
  if (a.name() == "nvls" && req.ranks.size() > 1) return "nvls draws NVSwitch port and NIC load";
  // Both partners send their whole buffer in the same step and reduce what they receive: MPI's
  // sendrecv into a scratch buffer, which this data model (one buffer per rank) does not have.
  if (a.name() == "rd" && req.ranks.size() > 1) return "rd exchanges whole buffers through a scratch buffer";
  if (a.name() == "tree" && req.topo->instance().intra == IntraNodeFabric::nvswitch && nodes.front().size() > 1)
    return "tree draws an NVSwitch node's chain as one 2S flow per GPU pair";
  if (a.name() == "hierarchical" && several_nodes)
    for (const auto& group : nic_groups(req, nodes.front()))
      if (group.size() > 1) return "hierarchical draws a NIC's GPUs' shards as one flow from its first GPU";
  const InstanceSpec& inst = req.topo->instance();
  if (a.name() == "parameter-server" && several_nodes && std::min(inst.cpu_sockets, inst.nic.count) > 1)
    return "parameter-server with striped servers draws each server pushing all the node's copies";
  return "";
}

// Every send's ranges lie in the buffer and add up to its bytes.
void check_ranges(const StepSchedule& s, Bytes size)
{
  for (std::size_t i = 0; i < s.tasks.size(); ++i) {
    if (s.tasks[i].kind != TaskKind::send) continue;
    Bytes total;
    for (const ByteRange& r : data_ranges(s, i)) {
      CHECK(r.offset.n + r.bytes.n <= size.n);
      total += r.bytes;
    }
    CHECK(total == s.tasks[i].bytes);
  }
}

// The ranks' shards partition the buffer.
void check_shards(const Algorithm& a, const Request& req)
{
  std::vector<ByteRange> all;
  for (std::size_t r = 0; r < req.ranks.size(); ++r)
    for (const ByteRange& b : a.shard(req, r))
      if (b.bytes.n > 0) all.push_back(b);
  std::sort(all.begin(), all.end(), [](const ByteRange& x, const ByteRange& y) { return x.offset < y.offset; });
  Bytes at;
  for (const ByteRange& b : all) {
    CHECK(b.offset == at);
    at = b.offset + b.bytes;
  }
  CHECK(at == req.bytes);
}

const std::vector<CollectiveOp> kOps{CollectiveOp::all_reduce, CollectiveOp::reduce_scatter, CollectiveOp::all_gather,
                                     CollectiveOp::broadcast, CollectiveOp::reduce};

}  // namespace

TEST_CASE("data level: every algorithm leaves every rank with the collective's result", "[data]")
{
  struct Machine {
    const char* name;
    int nodes;
  };
  const Machine m = GENERATE(Machine{"p3.16xlarge", 1}, Machine{"p3.16xlarge", 2}, Machine{"p4d.24xlarge", 2},
                             Machine{"p4d.24xlarge", 3}, Machine{"p5.48xlarge", 2});
  const int gpus = GENERATE(1, 2, 8);
  Topology topo(test::instance(m.name), m.nodes, gpus);
  std::map<std::string, int> checked, drawn;
  for (const auto& a : Registry::instance().all()) {
    if (!a->available(topo)) continue;
    for (CollectiveOp op : kOps) {
      if (!a->supports(op)) continue;
      // Sizes below the rank count (empty chunks), not divisible by ranks or channels, large.
      for (std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{13}, std::uint64_t{4096}, std::uint64_t{1000003}, 48 * MiB + 7})
        for (int channels : {1, 2}) {
          INFO(a->name() << " " << to_string(op) << " on " << m.nodes << " x " << gpus << " " << m.name << ", " << bytes
                         << " bytes, " << channels << " channels");
          const Request req{op, Bytes{bytes}, &topo, ring_order(topo), {}, channels};
          StepSchedule s;
          try {
            s = a->steps(req);
          } catch (const UserError&) {
            // rhd's halves alone need a power-of-two rank count and say so.
            CHECK(a->name() == "rhd");
            continue;
          }
          if (const std::string why = drawing(*a, req); !why.empty()) {
            ++drawn[std::string(a->name())];
            continue;
          }
          check_ranges(s, req.bytes);
          if (op == CollectiveOp::reduce_scatter || op == CollectiveOp::all_gather) check_shards(*a, req);
          CHECK(check_data(*a, req, s) == "");
          ++checked[std::string(a->name())];
        }
    }
  }
  // The exclusions stay exceptions: everything but nvls is checked on this machine shape, or has
  // a documented drawing.
  for (const auto& a : Registry::instance().all())
    if (a->available(topo) && a->name() != "nvls") CHECK(checked[std::string(a->name())] + drawn[std::string(a->name())] > 0);
  CHECK(checked["ring"] > 0);
  CHECK(checked["direct"] > 0);
  CHECK(checked["herring"] > 0);
}

TEST_CASE("data level: the check catches a task that carries the wrong range", "[data]")
{
  Topology topo(test::instance("p4d.24xlarge"), 2, 8);
  const char* name = GENERATE("ring", "rhd", "direct", "herring");
  const int channels = GENERATE(1, 2);
  const CollectiveOp op = GENERATE(CollectiveOp::all_reduce, CollectiveOp::reduce_scatter, CollectiveOp::all_gather);
  const Algorithm& a = Registry::instance().get(name);
  if (!a.supports(op)) return;
  const Request req{op, Bytes{1000003}, &topo, ring_order(topo), {}, channels};
  const StepSchedule good = a.steps(req);
  REQUIRE(check_data(a, req, good) == "");
  int mutated = 0;
  const std::size_t stride = 1 + good.tasks.size() / 200;
  for (std::size_t i = 0; i < good.tasks.size(); i += stride) {
    const Task& t = good.tasks[i];
    if (t.kind != TaskKind::send || t.bytes.n == 0) continue;
    // Move the task's (first) range by its own length (to the neighbouring chunk), wrapping to 0.
    StepSchedule bad = good;
    auto it = bad.pieces.find(static_cast<std::uint32_t>(i));
    ByteRange* r = it == bad.pieces.end() ? nullptr : &it->second.front();
    Bytes& offset = r ? r->offset : bad.tasks[i].offset;
    const Bytes length = r ? r->bytes : t.bytes, before = offset;
    offset = offset.n + 2 * length.n <= req.bytes.n ? Bytes{offset.n + length.n} : Bytes{0};
    if (offset == before || length.n == 0) continue;
    INFO(name << " " << to_string(op) << " channels=" << channels << ": task " << i << " moved from " << before.n << " to " << offset.n);
    CHECK(check_data(a, req, bad) != "");
    ++mutated;
  }
  INFO(name << " " << to_string(op) << " channels=" << channels);
  CHECK(mutated >= 5);
}

TEST_CASE("data level: double counting, missing data and races are errors", "[data]")
{
  Topology topo(test::instance("p4d.24xlarge"), 1, 4);
  const Algorithm& ring = Registry::instance().get("ring");
  const Request req{CollectiveOp::all_reduce, Bytes{100}, &topo, ring_order(topo), {}, 1};
  const VertexId g0 = req.ranks[0], g1 = req.ranks[1], g2 = req.ranks[2];
  auto send = [](VertexId s, VertexId d, std::uint64_t off, std::uint64_t n, std::vector<std::uint32_t> deps) {
    Task t;
    t.src = s;
    t.dst = d;
    t.offset = Bytes{off};
    t.bytes = Bytes{n};
    t.deps = std::move(deps);
    return t;
  };
  SECTION("a contribution reduced twice")
  {
    // 0 -> 1 then 1 -> 2 gives 2 {0,1,2}; 0 -> 2 again brings {0}: neither a copy nor a reduce.
    StepSchedule s;
    s.tasks = {send(g0, g1, 0, 100, {}), send(g1, g2, 0, 100, {0}), send(g0, g2, 0, 100, {1})};
    CHECK_THAT(check_data(ring, req, s), Catch::Contains("twice"));
  }
  SECTION("a rank that never receives some contributions")
  {
    StepSchedule s;
    s.tasks = {send(g0, g1, 0, 100, {})};
    CHECK_THAT(check_data(ring, req, s), Catch::Contains("ends with"));
  }
  SECTION("a range beyond the buffer")
  {
    StepSchedule s;
    s.tasks = {send(g0, g1, 50, 51, {})};
    CHECK_THAT(check_data(ring, req, s), Catch::Contains("beyond"));
  }
  SECTION("a send that does not wait for the data it forwards")
  {
    StepSchedule s = ring.steps(req);
    REQUIRE(check_data(ring, req, s) == "");
    // Step 1's first send forwards what step 0 delivered; without its dependencies it races.
    s.tasks[4].deps.clear();
    CHECK_THAT(check_data(ring, req, s), Catch::Contains("does not depend on") || Catch::Contains("unordered"));
  }
  SECTION("an all-gather rank sending a shard it does not hold")
  {
    const Request ag{CollectiveOp::all_gather, Bytes{100}, &topo, ring_order(topo), {}, 1};
    StepSchedule s;
    const ByteRange other = ring.shard(ag, 1).front();
    s.tasks = {send(g0, g1, other.offset.n, other.bytes.n, {})};
    CHECK_THAT(check_data(ring, ag, s), Catch::Contains("does not hold"));
  }
}

TEST_CASE("data level: nvls's port-load drawing is not a data path (why the check skips it)", "[data]")
{
  Topology topo(test::instance("p5.48xlarge"), 1, 8);
  const Algorithm& nvls = Registry::instance().get("nvls");
  const Request req{CollectiveOp::all_reduce, Bytes{MiB}, &topo, ring_order(topo), {}, 1};
  // A ring of port-load sends: the checker finds a cycle, or (with NVLS's (1 + 1/G) S port
  // traffic drawn) bytes beyond the buffer; either way, not a data path.
  CHECK_THAT(check_data(nvls, req, nvls.steps(req)), Catch::Contains("cycle") || Catch::Contains("beyond the buffer"));
}
