// ddpsim plan: ranges and lists expand into variants; exclusions, Pareto frontier and the
// recommendation follow the goal; parallel evaluation equals serial.
#include <catch2/catch.hpp>

#include "app/input/plan_loader.hpp"
#include "app/output/plan_report.hpp"
#include "sim/study/plan.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

const char* kPlan = R"(
name: p
cluster: {instance: [p3.16xlarge, p4d.24xlarge], nodes: {from: 1, to: 8, by: x2}}
model: {preset: bert-large, seq_len: 128}
training: {framework: [pytorch-ddp, zero-3], batch_per_gpu: {from: 8, to: 16, by: 8}, precision: fp16, optimizer: adam, samples: 2000000}
goal: {deadline: 2h, budget: 300USD, minimize: cost}
pricing: {source: "test prices", per_hour: {p4d.24xlarge: 10USD}}
)";

}  // namespace

TEST_CASE("plan files expand lists and ranges into variants with node lists", "[plan]")
{
  const app::PlanInput in = app::parse_plan("p.yaml", kPlan, test::catalog());
  REQUIRE(in.variants.size() == 2 * 2 * 2);
  CHECK(in.configurations == 8 * 4);
  CHECK(in.variants.front().spec.cluster.nodes == std::vector<int>{1, 2, 4, 8});
  CHECK(in.variants.front().label == "batch 8");
  CHECK(in.variants[1].spec.training.batch_per_gpu == 16);
  CHECK(in.variants.back().spec.cluster.instance.price_usd_per_hour == 10.0);
  CHECK(in.variants.back().spec.cluster.instance.price_source == "test prices");
  CHECK(in.goal.deadline_s == Approx(7200));
  CHECK(in.goal.budget_usd == Approx(300));
  CHECK(app::parse_usd("$12.5").value() == 12.5);
  CHECK_FALSE(app::parse_usd("12 EUR").has_value());
  CHECK_THROWS_AS(app::parse_plan("p.yaml", std::string(kPlan) + "x: 1\n", test::catalog()), app::UserErrors);
}

TEST_CASE("the recommendation is the cheapest candidate, the frontier is not dominated, exclusions say why", "[plan]")
{
  const app::PlanInput in = app::parse_plan("p.yaml", kPlan, test::catalog());
  const auto serial = sim::evaluate_variants(in.variants, 1);
  const auto parallel = sim::evaluate_variants(in.variants, 2);
  const sim::PlanReport rep = sim::decide(in.variants, serial, in.goal);
  CHECK(app::plan_json(rep) == app::plan_json(sim::decide(in.variants, parallel, in.goal)));
  REQUIRE(rep.recommended.has_value());
  const sim::ConfigResult& best = rep.rows[*rep.recommended].result;
  bool any_deadline = false;
  for (const sim::PlanRow& r : rep.rows) {
    if (r.excluded.empty()) {
      CHECK(r.result.total_time_s <= 7200);
      CHECK(r.result.cost_usd <= 300);
      CHECK(best.cost_usd <= r.result.cost_usd);
    } else {
      any_deadline = any_deadline || r.excluded.rfind("misses the deadline", 0) == 0;
    }
    if (r.pareto)
      for (const sim::PlanRow& o : rep.rows)
        if (o.result.fits) CHECK_FALSE((o.result.total_time_s < r.result.total_time_s && o.result.cost_usd < r.result.cost_usd));
  }
  CHECK(any_deadline);
  CHECK(rep.why.find("cheapest") != std::string::npos);
}
