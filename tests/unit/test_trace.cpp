// Chrome traces for both engines, and the --jobs fan-out giving what a serial run gives.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "app/output/report.hpp"
#include "app/input/scenario_loader.hpp"
#include "app/output/trace.hpp"
#include "sim/study/scenario.hpp"

using namespace ddpsim;

namespace {

sim::ScenarioSpec spec(const std::string& fabric = "")
{
  static const app::Catalog c = app::builtin_catalog();
  const std::string text = R"(name: t
cluster:
  instance: p4d.24xlarge
  nodes: [1, 2, 4, 8]
)" + fabric + R"(model:
  preset: resnet50
training:
  framework: pytorch-ddp
  batch_per_gpu: 32
  samples: 100000
)";
  return app::parse_scenario("t.yaml", text, c);
}

}  // namespace

TEST_CASE("traces: a process per node, named tracks, bucket and algorithm in args, for both engines")
{
  for (sim::EngineKind engine : {sim::EngineKind::analytical, sim::EngineKind::flow}) {
    INFO(to_string(engine));
    sim::Timeline timeline;
    sim::RunOptions opt;
    opt.engine = engine;
    opt.timeline = &timeline;
    sim::run_scenario(spec(), opt);
    const auto doc = nlohmann::json::parse(app::chrome_trace_json(timeline, {{"algorithm", "ring"}}));
    std::set<int> pids;
    std::set<std::pair<int, int>> tids;
    std::set<std::string> tracks;
    int comm_spans = 0;
    for (const auto& e : doc.at("traceEvents")) {
      if (e.at("ph") == "M") {
        if (e.at("name") == "process_name") pids.insert(e.at("pid").get<int>());
        if (e.at("name") == "thread_name") {
          tids.insert({e.at("pid").get<int>(), e.at("tid").get<int>()});
          tracks.insert(e.at("args").at("name").get<std::string>());
        }
        continue;
      }
      REQUIRE(e.at("ph") == "X");
      CHECK(pids.count(e.at("pid").get<int>()) == 1);  // metadata comes before use
      CHECK(tids.count({e.at("pid").get<int>(), e.at("tid").get<int>()}) == 1);
      CHECK(e.at("ts").get<double>() >= 0);
      CHECK(e.at("dur").get<double>() >= 0);
      if (e.at("args").contains("protocol")) {  // a bucket's reduction: what NCCL chose for it
        const std::string a = e.at("args").at("algorithm");
        CHECK((a == "ring" || a == "tree"));
        CHECK("bucket " + e.at("args").at("bucket").get<std::string>() == e.at("name"));
        ++comm_spans;
      }
    }
    CHECK(tracks.count("gpu0 compute") == 1);
    CHECK(tracks.count("gpu0 comm") == 1);
    CHECK(tracks.count("link nic") == 1);  // 8 nodes: the ring crosses the NICs
    CHECK(tracks.count("link nvswitch") == 1);
    CHECK(comm_spans > 0);
    // Deterministic: the same run gives the same bytes.
    sim::Timeline again;
    opt.timeline = &again;
    sim::run_scenario(spec(), opt);
    CHECK(app::chrome_trace_json(again) == app::chrome_trace_json(timeline));
  }
}

TEST_CASE("sweeps: node counts fanned out over processes come back in order, identical to serial")
{
  const sim::ScenarioSpec s = spec("  fabric: {kind: leaf_spine, nodes_per_leaf: 2, oversubscription: 2}\n");
  for (sim::EngineKind engine : {sim::EngineKind::analytical, sim::EngineKind::flow}) {
    sim::Timeline t1, t3;
    sim::RunOptions serial;
    serial.engine = engine;
    serial.timeline = &t1;
    sim::RunOptions parallel = serial;
    parallel.jobs = 3;
    parallel.timeline = &t3;
    const sim::ScenarioReport a = sim::run_scenario(s, serial);
    const sim::ScenarioReport b = sim::run_scenario(s, parallel);
    REQUIRE(b.results.size() == 4);
    CHECK(b.results[3].nodes == 8);
    CHECK(app::scenario_json(a) == app::scenario_json(b));
    CHECK(app::scenario_csv(a) == app::scenario_csv(b));
    CHECK(app::chrome_trace_json(t1) == app::chrome_trace_json(t3));
  }
}

TEST_CASE("cluster.fabric is read and checked")
{
  const sim::ScenarioSpec s = spec("  fabric: {kind: leaf_spine, nodes_per_leaf: 4, oversubscription: 2, switch_latency: 1us}\n");
  CHECK(s.cluster.fabric.kind == FabricKind::leaf_spine);
  CHECK(s.cluster.fabric.nodes_per_leaf == 4);
  CHECK(s.cluster.fabric.oversubscription == 2.0);
  CHECK(s.cluster.fabric.switch_latency == Time::from_us(1));
  CHECK_THROWS_AS(spec("  fabric: {kind: leaf_spine}\n"), UserError);                       // no nodes_per_leaf
  CHECK_THROWS_AS(spec("  fabric: {kind: rail, oversubscription: 2}\n"), UserError);         // not a leaf/spine
  CHECK_THROWS_AS(spec("  fabric: {kind: fat_tree}\n"), UserError);
  CHECK_THROWS_WITH(spec("  fabric: {kind: leaf_spine, nodes_per_leaf: 2, oversubscription: 0.5}\n"),
                    Catch::Contains("oversubscription"));
}

TEST_CASE("the trace shows a process per node and tracks per GPU, capped")
{
  sim::Timeline t;
  t.add({0, 0, sim::Stream::compute, "", "forward", Time{0}, Time{1000000}, {}});
  t.add({0, 0, sim::Stream::comm, "", "bucket 0", Time{500000}, Time{2000000}, {{"bucket", "0"}}});
  t.add({0, -1, sim::Stream::link, "nic", "bucket 0 all_reduce", Time{500000}, Time{2000000}, {}});
  const auto doc = nlohmann::json::parse(app::chrome_trace_json(t, {}, app::TraceLayout{3, 4, 16}));
  std::set<std::string> processes, threads;
  int complete = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "X") ++complete;
  }
  CHECK(processes == std::set<std::string>{"node 0", "node 1", "node 2"});
  CHECK(threads.count("gpu3 compute") == 1);
  CHECK(threads.count("gpu3 comm") == 1);
  CHECK(threads.count("link nic") == 1);
  CHECK(complete == 3 * (4 + 4 + 1));
  const auto capped = nlohmann::json::parse(app::chrome_trace_json(t, {}, app::TraceLayout{1000, 8, 2}));
  CHECK(capped["otherData"]["nodes_shown"] == 2);
}
