// Herring (SMDDP) and the classic parameter server: bytes over each node's NIC, shard sizes,
// the CPU sums, and the closed forms of algorithms/herring.hpp and parameter_server.hpp.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "algorithms/herring.hpp"
#include "algorithms/parameter_server.hpp"
#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "support.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/flow_backend.hpp"
#include "topology/rings.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;

namespace {

using test::instance;

struct Tally {
  std::map<int, std::uint64_t> nic_out;  // bytes each node sends to other nodes
  std::uint64_t gpu_to_host = 0;         // GPU -> CPU bytes
  std::vector<std::uint64_t> inter_sends;
  std::uint64_t reduced = 0;             // bytes the CPU servers read while summing
};

Tally tally(const Topology& topo, const StepSchedule& s)
{
  Tally t;
  for (const Task& task : s.tasks) {
    const Device& a = topo.device(task.src);
    const Device& b = topo.device(task.dst);
    if (task.kind == TaskKind::reduce) t.reduced += task.bytes.n;
    if (task.kind != TaskKind::send) continue;
    if (a.node != b.node) {
      t.nic_out[a.node] += task.bytes.n;
      t.inter_sends.push_back(task.bytes.n);
    }
    if (a.kind == DeviceKind::gpu && b.kind == DeviceKind::cpu) t.gpu_to_host += task.bytes.n;
  }
  return t;
}

}  // namespace

TEST_CASE("herring and parameter-server are registered")
{
  CHECK(Registry::instance().find("herring") != nullptr);
  CHECK(Registry::instance().find("parameter-server") != nullptr);
}

TEST_CASE("herring: one intra-node reduce-scatter, S/N shards to every node's server, sums back")
{
  const int n = GENERATE(2, 3, 4);
  const char* name = GENERATE("p3dn.24xlarge", "p4d.24xlarge");
  INFO(name << " nodes=" << n);
  const Topology topo(instance(name), n, 8);
  const std::uint64_t s = 100'000'007;
  const Request req{CollectiveOp::all_reduce, Bytes{s}, &topo, ring_order(topo), {}, 1, nullptr};
  const HerringAllReduce herring;
  const Tally t = tally(topo, herring.steps(req));
  const int stripes = std::min(topo.instance().cpu_sockets, topo.instance().nic.count);
  // After the reduce-scatter the node's GPUs hold S between them: S goes to the host per node.
  CHECK(t.gpu_to_host == s * static_cast<std::uint64_t>(n));
  // Each node sends (N-1)/N x S of shards and (N-1)/N x S of sums to the other nodes.
  for (auto [node, bytes] : t.nic_out)
    CHECK(static_cast<double>(bytes) == Approx(2.0 * (n - 1) / n * static_cast<double>(s)).margin(4.0 * n * stripes));
  // Every inter-node message is one balanced shard: S / (N x stripes), to within rounding.
  for (std::uint64_t b : t.inter_sends)
    CHECK(static_cast<double>(b) == Approx(static_cast<double>(s) / (n * stripes)).margin(8));
  // Server i sums N shards of S/N: the servers read N x S in all.
  CHECK(static_cast<double>(t.reduced) == Approx(static_cast<double>(n) * static_cast<double>(s)).margin(16.0 * n));
}

TEST_CASE("parameter server: g times Herring's NIC bytes, no intra-node pre-reduction")
{
  const int n = 4, g = 8;
  const Topology topo(instance("p3dn.24xlarge"), n, g);
  const std::uint64_t s = 64 * MiB;
  const Request req{CollectiveOp::all_reduce, Bytes{s}, &topo, ring_order(topo), {}, 1, nullptr};
  const Tally ps = tally(topo, ParameterServerAllReduce().steps(req));
  const Tally he = tally(topo, HerringAllReduce().steps(req));
  CHECK(ps.gpu_to_host == s * g * n);  // every GPU copies its whole gradient
  for (int node = 0; node < n; ++node)
    CHECK(static_cast<double>(ps.nic_out.at(node)) == Approx(g * static_cast<double>(he.nic_out.at(node))).epsilon(1e-6));
  sim::AnalyticalBackend net(topo);
  const double t_ps = net.duration(ParameterServerAllReduce().phases(req)).seconds();
  const double t_he = net.duration(HerringAllReduce().phases(req)).seconds();
  CHECK(t_ps > 2 * t_he);
}

TEST_CASE("parameter server: a worker pushes to every server at once, Herring's servers go in rounds")
{
  const int n = 4;
  const Topology topo(instance("p3dn.24xlarge"), n, 8);
  const Request req{CollectiveOp::all_reduce, Bytes{64 * MiB}, &topo, ring_order(topo), {}, 1, nullptr};
  auto stage = [](const CoarseSchedule& c, const std::string& prefix) {
    std::vector<const Phase*> out;
    for (const Phase& p : c.phases)
      if (p.name.rfind(prefix, 0) == 0) out.push_back(&p);
    return out;
  };
  // The parameter server: one phase per exchange, every (node, peer) pair in it, one step each.
  const CoarseSchedule ps = ParameterServerAllReduce().phases(req);
  for (const char* name : {"push", "pull"}) {
    const auto phases = stage(ps, name);
    REQUIRE(phases.size() == 1);
    CHECK(phases.front()->flows.size() == static_cast<std::size_t>(n * (n - 1) * std::min(topo.instance().cpu_sockets, topo.instance().nic.count)));
    CHECK(phases.front()->steps == 1);
  }
  // Its step DAG: no push waits for another push.
  const StepSchedule steps = ParameterServerAllReduce().steps(req);
  std::set<std::uint32_t> inter;
  for (std::uint32_t i = 0; i < steps.tasks.size(); ++i)
    if (steps.tasks[i].kind == TaskKind::send && topo.device(steps.tasks[i].src).node != topo.device(steps.tasks[i].dst).node) inter.insert(i);
  for (std::uint32_t i : inter)
    for (std::uint32_t d : steps.tasks[i].deps) CHECK(inter.count(d) == 0);
  // Herring keeps its N-1 rounds.
  CHECK(stage(HerringAllReduce().phases(req), "shards to servers").size() == static_cast<std::size_t>(n - 1));
  // At once, the NIC carries what every round carried: at least the node's bytes at its rate.
  sim::AnalyticalBackend net(topo);
  const double push_bytes = 8.0 * 64 * MiB * (n - 1) / n;  // g copies of every other node's shards
  CHECK(net.duration(ps).seconds() >= 2 * push_bytes / topo.instance().nic.bandwidth.bytes_per_s);
}

TEST_CASE("herring never beats the NIC bound, matches the ring alone on one node, and both engines agree")
{
  const int n = GENERATE(1, 2, 8);
  const Topology topo(instance("p3dn.24xlarge"), n, 8);
  sim::AnalyticalBackend net(topo);
  const std::uint64_t s = 256 * MiB;
  const Request req{CollectiveOp::all_reduce, Bytes{s}, &topo, ring_order(topo), {}, 1, nullptr};
  const double t = net.duration(HerringAllReduce().phases(req)).seconds();
  // Two GPUs share each PCIe switch's uplink to the host: the step form, which prices each copy
  // alone, is faster on several nodes; the flow engine shares the uplink and agrees with the
  // coarse form (AnalyticalBackend::shared_link_time).
  const double t_steps = net.run_steps(HerringAllReduce().steps(req)).seconds();
  if (n == 1) CHECK(t_steps == Approx(t).epsilon(1e-6));
  else CHECK(t_steps < t);
  sim::FlowBackend flow(topo);
  CHECK(flow.run({{Time{0}, 0, HerringAllReduce().phases(req), "herring"}})[0].end.seconds() == Approx(t).epsilon(1e-6));
  const double nic = topo.instance().nic.bandwidth.bytes_per_s;
  // Shards out and sums out each cross the NIC: 2 (N-1)/N x S / NIC bandwidth at least.
  CHECK(t >= 2.0 * (n - 1) / n * static_cast<double>(s) / nic);
  if (n == 1) {
    Request ring = req;
    CHECK(t > 0);
    CHECK(t == Approx(net.duration(Registry::instance().get("ring").phases(ring)).seconds()).epsilon(1e-6));
  }
}

TEST_CASE("herring and the parameter server: the servers' side is a part of its own, and two buffers pipeline")
{
  const int n = GENERATE(1, 2, 4);
  const char* name = GENERATE("herring", "parameter-server");
  INFO(name << " nodes=" << n);
  const Topology topo(instance("p3dn.24xlarge"), n, 8);
  sim::AnalyticalBackend net(topo);
  const Request req{CollectiveOp::all_reduce, Bytes{64 * MiB}, &topo, ring_order(topo), {}, 1, nullptr};
  const CoarseSchedule whole = Registry::instance().get(name).phases(req);
  const std::vector<CoarseSchedule> parts = split_by_side(whole);
  // GPU (reduce-scatter or nothing, copies to the host), servers (exchanges and sums), GPU (copies
  // back, all-gather). Herring on one node is its NVLink ring alone; the parameter server still
  // sums every GPU's copy on the host.
  const bool herring = std::string(name) == "herring";
  REQUIRE(parts.size() == (herring && n == 1 ? 1u : 3u));
  std::size_t phases = 0;
  Time sum{0};
  for (std::size_t k = 0; k < parts.size(); ++k) {
    for (const Phase& p : parts[k].phases) CHECK(p.on_host == (k == 1));
    CHECK(parts[k].fixed_latency == (k == 0 ? whole.fixed_latency : Time{0}));
    phases += parts[k].phases.size();
    sum += net.duration(parts[k]);
  }
  CHECK(phases == whole.phases.size());
  CHECK(sum == net.duration(whole));  // the parts add up to the whole on an idle network
  if (parts.size() == 1) return;

  // Two buffers ready at once, each part on its stream after the part before it: the second
  // buffer's copies to the host run while the first is on the servers, so both end before they
  // would in series; the first buffer alone is not slowed on the analytical engine.
  std::vector<sim::CollectiveJob> jobs;
  for (int b = 0; b < 2; ++b)
    for (std::size_t k = 0; k < parts.size(); ++k) {
      sim::CollectiveJob j{Time{0}, static_cast<int>(k), parts[k], "buffer " + std::to_string(b)};
      if (k > 0) j.after = jobs.size() - 1;
      jobs.push_back(std::move(j));
    }
  const Time serial = net.duration(whole) * 2;
  const std::vector<sim::JobTiming> a = net.run(jobs);
  CHECK(a[3].start == a[0].end);  // buffer 1 starts its copies when buffer 0's are done
  CHECK(a[4].start == max(a[3].end, a[1].end));
  CHECK(a[2].end == net.duration(whole));
  CHECK(a[5].end < serial);
  sim::FlowBackend flow(topo);
  const std::vector<sim::JobTiming> f = flow.run(jobs);
  for (std::size_t k = 1; k < jobs.size(); ++k)
    if (jobs[k].after) CHECK(f[k].start >= f[*jobs[k].after].end);
  CHECK(f[5].end < serial);
  CHECK(f[5].end.seconds() >= a[5].end.seconds() * (1 - 1e-6));  // the flow engine shares the links both buffers use
}
