// Issue 11 item 5, the newcomer's fixes: per-framework speedups, the scenario's engine and the
// oversubscription warning, the trace's configuration and loader wait, the broadcast over a
// pipelined ring, nccl-tests' footer read back, several scenarios in one CSV.
#include <catch2/catch.hpp>

#include "algorithms/registry.hpp"
#include "app/cli/engine_choice.hpp"
#include "app/output/multi_report.hpp"
#include "app/output/report.hpp"
#include "app/input/scenario_loader.hpp"
#include "calibrate/nccl_log.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/collective_model.hpp"
#include "sim/study/guards.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

const std::string kCompare = R"(name: t
cluster: {instance: p3dn.24xlarge, nodes: [1, 2, 4]}
model: {preset: bert-large, seq_len: 128}
training: {framework: pytorch-ddp, compare: [smddp], batch_per_gpu: 32, precision: fp16, samples: 1000000}
)";

const std::string kLeafSpine = R"(name: t
cluster:
  instance: p4d.24xlarge
  nodes: [2, 8]
  fabric: {kind: leaf_spine, nodes_per_leaf: 4, oversubscription: 4}
model: {preset: bert-large, seq_len: 128}
training: {framework: pytorch-ddp, batch_per_gpu: 32, precision: fp16, samples: 1000000}
)";

}  // namespace

TEST_CASE("newcomer: speedup and efficiency are computed within each framework's block", "[newcomer]")
{
  const auto rep = sim::run_scenario(app::parse_scenario("t.yaml", kCompare, test::catalog()));
  REQUIRE(rep.results.size() == 6);
  for (std::size_t block : {0u, 3u}) {
    const auto& first = rep.results[block];
    CHECK(first.speedup == Approx(1));
    CHECK(first.scaling_efficiency == Approx(1));
    for (std::size_t i = block; i < block + 3; ++i) {
      CHECK(rep.results[i].framework == first.framework);
      CHECK(rep.results[i].speedup == Approx(first.total_time_s / rep.results[i].total_time_s));
      // Within a block the efficiency cannot exceed 100% on this scaling (more GPUs, more comm).
      CHECK(rep.results[i].scaling_efficiency <= 1.0 + 1e-9);
    }
  }
  CHECK(rep.results[3].framework == "smddp");
}

TEST_CASE("newcomer: engine: in the scenario, --engine overrides it, analytical otherwise", "[newcomer]")
{
  auto spec = app::parse_scenario("t.yaml", kCompare + "engine: flow\n", test::catalog());
  CHECK(spec.engine == "flow");
  CHECK(app::resolve_engine("", spec) == sim::EngineKind::flow);
  CHECK(app::resolve_engine("analytical", spec) == sim::EngineKind::analytical);
  spec.engine.clear();
  CHECK(app::resolve_engine("", spec) == sim::EngineKind::analytical);
}

TEST_CASE("newcomer: an oversubscribed fabric on the analytical engine warns, on rows that cross leaves", "[newcomer]")
{
  const auto spec = app::parse_scenario("t.yaml", kLeafSpine, test::catalog());
  sim::RunOptions run;
  sim::ScenarioReport rep = sim::run_scenario(spec, run);
  sim::add_engine_warnings(spec, sim::EngineKind::analytical, rep);
  auto warned = [](const sim::ConfigResult& r) {
    for (const auto& w : r.warnings)
      if (w.find("oversubscribed 4:1") != std::string::npos) return true;
    return false;
  };
  CHECK_FALSE(warned(rep.results[0]));  // 2 nodes: one leaf
  CHECK(warned(rep.results[1]));        // 8 nodes: two leaves
  CHECK(app::scenario_csv(rep).find("oversubscribed 4:1") != std::string::npos);  // the CSV carries it
  sim::ScenarioReport flow = rep;
  for (auto& r : flow.results) r.warnings.clear();
  sim::add_engine_warnings(spec, sim::EngineKind::flow, flow);
  CHECK_FALSE(warned(flow.results[1]));
}

TEST_CASE("newcomer: the trace records the configuration asked for, and draws the loader wait", "[newcomer]")
{
  const auto spec = app::parse_scenario("t.yaml", kCompare, test::catalog());
  sim::Timeline timeline;
  sim::RunOptions run;
  run.timeline = &timeline;
  run.trace_nodes = 2;
  run.trace_framework = sim::Framework::smddp;
  sim::run_scenario(spec, run);
  bool smddp_bucket = false;
  for (const auto& s : timeline.spans) smddp_bucket = smddp_bucket || s.stream == sim::Stream::comm;
  CHECK(smddp_bucket);
  run.trace_nodes = 3;  // no such configuration
  sim::Timeline other;
  run.timeline = &other;
  CHECK_THROWS_WITH(sim::run_scenario(spec, run), Catch::Contains("--trace-config") && Catch::Contains("3 nodes"));

  // A loader slower than the step: the GPU's idle time is a span on its compute track.
  const auto slow = app::parse_scenario("t.yaml", kCompare + "data: {workers: 1, per_sample_cpu_s: 0.05}\n", test::catalog());
  sim::Timeline t2;
  sim::RunOptions r2;
  r2.timeline = &t2;
  const auto rep = sim::run_scenario(slow, r2);
  REQUIRE(rep.results.back().loader_wait_s > 0);
  double wait = 0;
  for (const auto& s : t2.spans)
    if (s.name == "loader wait") wait += (s.end - s.start).seconds();
  CHECK(wait == Approx(rep.results.back().loader_wait_s).epsilon(1e-6));
}

TEST_CASE("newcomer: broadcast over a pipelined ring beats the root sending to everyone", "[newcomer]")
{
  const InstanceSpec& inst = test::instance("p4d.24xlarge");
  const Topology topo(inst, 4, inst.gpus);
  const auto net = sim::make_backend(sim::EngineKind::analytical, topo);
  auto time_us = [&](const char* algorithm, std::uint64_t bytes) {
    sim::CollectiveOptions o;
    o.algorithm = algorithm;
    return sim::time_alone_us(sim::CollectiveModel(topo, o).price(algo::CollectiveOp::broadcast, Bytes{bytes}), *net);
  };
  const algo::Algorithm& ring = algo::Registry::instance().get("ring-broadcast");
  CHECK(ring.supports(algo::CollectiveOp::broadcast));
  CHECK_FALSE(ring.supports(algo::CollectiveOp::all_reduce));
  // 256 MiB over 32 ranks: the ring moves S over each edge at once, direct sends 31 x S from the root.
  const double r = time_us("ring-broadcast", 256 * MiB), d = time_us("direct", 256 * MiB);
  CHECK(r < d / 4);
  // Bandwidth bound: the slowest edge (a node's NIC share, 4 x 100 Gbps EFA) carries all S.
  CHECK(r * 1e-6 >= static_cast<double>(256 * MiB) / (4 * 100e9 / 8) * 0.99);
  const algo::HopCount hops = ring.latency_hops(algo::Request{algo::CollectiveOp::broadcast, Bytes{MiB}, &topo,
                                                              algo::all_gpus(topo), {}, 1, nullptr});
  CHECK(hops.inter == 3);
  CHECK(hops.intra == 28);
}

TEST_CASE("newcomer: nccl-tests' Avg bus bandwidth footer is read back", "[newcomer]")
{
  const std::string log =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "     1048576        262144     float     sum      -1    100.0   10.49   19.66    N/A    100.0   10.49   19.66    N/A  ring Simple\n"
      "     2097152        524288     float     sum      -1    150.0   13.98   26.21    N/A    150.0   13.98   26.21    N/A  ring Simple\n"
      "# Out of bounds values : N/A (predicted, not checked)\n"
      "# Avg bus bandwidth    : 22.935 \n#\n";
  const calibrate::NcclLog parsed = calibrate::parse_nccl_log("x.txt", log);
  REQUIRE(parsed.rows.size() == 2);
  CHECK(parsed.rows[1].time_us == Approx(150.0));
  CHECK(parsed.avg_busbw_GBps == Approx(22.935));
  CHECK(calibrate::parse_nccl_log("y.txt", log.substr(0, log.find("# Out"))).avg_busbw_GBps == 0);
}

TEST_CASE("newcomer: several scenarios make one CSV with a scenario column and the union of columns", "[newcomer]")
{
  sim::ScenarioReport a = sim::run_scenario(app::parse_scenario("a.yaml", kCompare, test::catalog()));
  sim::ScenarioReport b = sim::run_scenario(app::parse_scenario("b.yaml", kLeafSpine, test::catalog()));
  b.scenario = "second, with a comma";
  const std::string csv = app::scenarios_csv({a, b});
  std::istringstream in(csv);
  std::string head, line;
  std::getline(in, head);
  CHECK(head.rfind("scenario,instance,nodes,", 0) == 0);
  int rows = 0, quoted = 0;
  const std::size_t width = app::split_csv_line(head).size();
  while (std::getline(in, line)) {
    ++rows;
    CHECK(app::split_csv_line(line).size() == width);
    quoted += line.rfind("\"second, with a comma\",", 0) == 0;
  }
  CHECK(rows == 8);
  CHECK(quoted == 2);
  CHECK(app::split_csv_line("a,\"b,\"\"c\"\"\",d") == std::vector<std::string>{"a", "b,\"c\"", "d"});
}

TEST_CASE("newcomer: p5 prices are the post-June-2025 on-demand rates, with their source and date", "[newcomer]")
{
  const InstanceSpec& p5 = test::instance("p5.48xlarge");
  CHECK(p5.price_usd_per_hour == Approx(55.04));
  CHECK(p5.price_source.find("2025-06-05") != std::string::npos);
  CHECK(p5.price_source.find("read 2025-12-21") != std::string::npos);
  const InstanceSpec& p5en = test::instance("p5en.48xlarge");
  CHECK(p5en.price_usd_per_hour == Approx(63.296));
  CHECK(p5en.price_source.find("2025-06-05") != std::string::npos);
}
