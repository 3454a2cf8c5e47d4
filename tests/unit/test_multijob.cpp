// Several jobs on one fabric (issue 12, item 4; sim/study/multijob.hpp): placement, the flow
// engine sharing a spine between two jobs (hand computation: each gets half), and the refusals.
#include <catch2/catch.hpp>

#include "app/input/catalog_loader.hpp"
#include "app/input/multijob_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/study/multijob.hpp"

using namespace ddpsim;

namespace {

// Two identical BERT-large DDP jobs of two p4d nodes each on four nodes, two per leaf.
sim::MultiJobSpec two_jobs(sim::Placement placement, double oversubscription)
{
  static const app::Catalog c = app::builtin_catalog();
  sim::MultiJobSpec m;
  m.name = "test";
  m.instance = *c.find("p4d.24xlarge");
  m.nodes = 4;
  m.fabric.kind = FabricKind::leaf_spine;
  m.fabric.nodes_per_leaf = 2;
  m.fabric.oversubscription = oversubscription;
  m.placement = placement;
  for (const char* name : {"a", "b"}) {
    sim::JobSpec j;
    j.name = name;
    j.spec.name = name;
    j.spec.cluster.instance = m.instance;
    j.spec.cluster.nodes = {2};
    j.spec.cluster.fabric = m.fabric;
    j.spec.model = sim::make_bert_large();
    j.spec.training.batch_per_gpu = 8;
    j.spec.training.precision = Precision::fp16;
    j.spec.training.steps = 1;
    m.jobs.push_back(std::move(j));
  }
  return m;
}

}  // namespace

TEST_CASE("multijob: packed fills leaf after leaf, spread deals one node per leaf", "[multijob]")
{
  sim::MultiJobSpec m = two_jobs(sim::Placement::packed, 1);
  CHECK(sim::place_jobs(m) == std::vector<std::vector<int>>{{0, 1}, {2, 3}});
  m.placement = sim::Placement::spread;
  CHECK(sim::place_jobs(m) == std::vector<std::vector<int>>{{0, 2}, {1, 3}});
  // A node range is honoured first; the other job takes what is left.
  m.jobs[1].first_node = 0;
  CHECK(sim::place_jobs(m) == std::vector<std::vector<int>>{{2, 3}, {0, 1}});
  m.jobs[0].spec.cluster.nodes = {3};
  CHECK_THROWS_AS(sim::place_jobs(m), UserError);
}

TEST_CASE("multijob: two jobs across one oversubscribed spine each get half of it", "[multijob]")
{
  // Spread: each job has one node in each leaf, so all its inter-node traffic crosses the leaf
  // uplinks, which at 64:1 are far narrower than the NICs: the bandwidth part of every
  // all-reduce is the uplink's. Together, the two jobs' rings cross the same uplinks at the
  // same time: each gets half, so each all-reduce's transfer time doubles (latency unchanged).
  const sim::MultiJobReport rep = sim::run_multijob(two_jobs(sim::Placement::spread, 64), sim::EngineKind::flow);
  REQUIRE(rep.jobs.size() == 2);
  for (const sim::JobResult& j : rep.jobs) {
    INFO(j.name << " comm alone " << j.alone.comm_s << " together " << j.together.comm_s);
    CHECK(j.together.comm_s / j.alone.comm_s == Approx(2.0).epsilon(0.01));
    // The same compute: the step grows by the communication it could not hide.
    CHECK(j.together.compute_s == j.alone.compute_s);
    CHECK(j.together.step_time_s - j.alone.step_time_s ==
          Approx(j.together.exposed_comm_s - j.alone.exposed_comm_s).epsilon(1e-9));
    CHECK(j.slowdown > 1.5);
  }
  CHECK(rep.jobs[0].together.step_time_s == Approx(rep.jobs[1].together.step_time_s).epsilon(1e-9));
}

TEST_CASE("multijob: jobs on separate leaves do not slow each other", "[multijob]")
{
  // Packed: each job inside one leaf, nothing crosses the spine and the nodes are disjoint.
  const sim::MultiJobReport rep = sim::run_multijob(two_jobs(sim::Placement::packed, 64), sim::EngineKind::flow);
  for (const sim::JobResult& j : rep.jobs) {
    CHECK(j.together.step_time_s == Approx(j.alone.step_time_s).epsilon(1e-9));
    CHECK(j.slowdown == Approx(1.0).epsilon(1e-9));
  }
}

TEST_CASE("multijob: the analytical engine refuses and points at --engine flow", "[multijob]")
{
  try {
    sim::run_multijob(two_jobs(sim::Placement::spread, 64), sim::EngineKind::analytical);
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.field() == "jobs");
    CHECK_THAT(e.message(), Catch::Contains("--engine flow"));
  }
}

TEST_CASE("multijob: YAML errors are located", "[multijob]")
{
  const app::Catalog catalog = app::builtin_catalog();
  const std::string head =
      "name: t\ncluster: {instance: p4d.24xlarge, nodes: 4, fabric: {kind: leaf_spine, nodes_per_leaf: 2}}\n"
      "model: {preset: bert-large}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 8, steps: 1}\njobs:\n";
  auto error_of = [&](const std::string& jobs) -> std::string {
    try {
      app::parse_multijob("f.yaml", app::parse_yaml("f.yaml", head + jobs), catalog);
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of("  - {name: a, nodes: 2}\n  - {name: b, nodes: 2}\n").empty());
  CHECK_THAT(error_of("  - {name: a, nodes: 3}\n  - {name: b, nodes: 2}\n"),
             Catch::StartsWith("f.yaml:7:22: error: jobs[1].nodes:"));
  CHECK_THAT(error_of("  - {name: a, node_range: [0, 2]}\n  - {name: b, node_range: [2, 3]}\n"),
             Catch::StartsWith("f.yaml:7:27: error: jobs[1].node_range: overlaps"));
  CHECK_THAT(error_of("  - {name: a, nodes: 2}\n  - {name: b, nodes: 2, model: {preset: bert-huge}}\n"),
             Catch::StartsWith("f.yaml:7:"));
  CHECK_THAT(error_of("  - {name: a, nodes: 2}\n  - {name: b, nodes: 2, training: {framework: pytorch-ddp, batch_per_gpu: "
                      "8, steps: 1, compare: [horovod]}}\n"),
             Catch::Contains("jobs[1].training.compare: one framework per job"));
  CHECK_THAT(error_of("  - {name: a, nodes: 2}\n"), Catch::Contains("jobs: expected a list of at least two jobs"));
}
