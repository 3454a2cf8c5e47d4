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

// Issue 18: how sure a recommendation is. goal.confidence 0.9 judges every row by the p90 of its
// interval (time and cost), so the plan buys what meets the goal by the model's stated uncertainty.
TEST_CASE("goal.confidence 0.9 judges rows by the p90 of their intervals", "[plan]")
{
  const std::string central_plan = kPlan;
  const std::string p90_plan = std::string(kPlan).replace(central_plan.find("minimize: cost}"), 15,
                                                          "minimize: cost, confidence: 0.9}");
  const app::PlanInput central = app::parse_plan("p.yaml", central_plan, test::catalog());
  const app::PlanInput at_p90 = app::parse_plan("p.yaml", p90_plan, test::catalog());
  CHECK_FALSE(central.goal.at_p90);
  REQUIRE(at_p90.goal.at_p90);
  const auto plain = sim::evaluate_variants(central.variants, 1);
  const auto banded = sim::evaluate_variants(at_p90.variants, 2, {}, true);  // parallel, with intervals
  CHECK(app::plan_json(sim::decide(at_p90.variants, banded, at_p90.goal)) ==
        app::plan_json(sim::decide(at_p90.variants, sim::evaluate_variants(at_p90.variants, 1, {}, true), at_p90.goal)));
  const sim::PlanReport a = sim::decide(central.variants, plain, central.goal);
  const sim::PlanReport b = sim::decide(at_p90.variants, banded, at_p90.goal);
  REQUIRE(a.rows.size() == b.rows.size());
  int moved = 0;
  for (std::size_t i = 0; i < b.rows.size(); ++i) {
    const sim::ConfigResult& r = b.rows[i].result;
    CHECK(r.total_time_s == a.rows[i].result.total_time_s);  // the central values do not move
    if (!r.fits) continue;
    REQUIRE(r.total_band.set);
    CHECK(sim::judged_time_s(r, b.goal) == r.total_band.p90);
    CHECK(sim::judged_time_s(r, a.goal) == r.total_time_s);
    if (b.rows[i].excluded.empty()) {
      CHECK(r.total_band.p90 <= 7200);
      CHECK(r.cost_band.p90 <= 300);
    }
    if (a.rows[i].excluded.empty() && !b.rows[i].excluded.empty()) {
      ++moved;  // meets the goal at its central value, not at its p90
      CHECK_THAT(b.rows[i].excluded, Catch::Contains(" at p90: "));
    }
  }
  CHECK(moved > 0);
  REQUIRE(b.recommended.has_value());
  CHECK_THAT(b.why, Catch::Contains("at the p90 of its interval"));
  CHECK_THAT(app::plan_table(b), Catch::Contains("confidence 0.9"));
  CHECK_THAT(app::plan_csv(b), Catch::StartsWith("instance,") && Catch::Contains(",total_time_s_p90,cost_usd_p90\n"));
  // Each row's efficiency with the speedup's band (result_fields.hpp); a central plan has none.
  CHECK_THAT(app::plan_json(b), Catch::Contains("\"scaling_efficiency_p90\""));
  CHECK_THAT(app::plan_json(a), !Catch::Contains("scaling_efficiency_p90"));
  // Only 0.5 and 0.9: ddpsim's intervals are p10-p90.
  try {
    app::parse_plan("p.yaml", std::string(kPlan).replace(central_plan.find("minimize: cost}"), 15, "confidence: 0.8}"),
                    test::catalog());
    FAIL("goal.confidence 0.8 accepted");
  } catch (const app::UserErrors& e) {
    CHECK_THAT(e.what(), Catch::Contains("goal.confidence") && Catch::Contains("0.9"));
  }
}
