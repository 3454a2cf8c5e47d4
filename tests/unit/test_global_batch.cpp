// training.global_batch: strong scaling at a fixed global batch (sim/study/global_batch.hpp).
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "core/error.hpp"
#include "sim/study/global_batch.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

std::string yaml(const std::string& training_extra, const std::string& nodes = "[1, 2, 4]")
{
  return "name: gb\ncluster: {instance: dgx-a100, nodes: " + nodes +
         "}\nmodel: {preset: bert-base, seq_len: 128}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 32, "
         "precision: fp16, optimizer: adam, steps: 10" + training_extra + "}\n";
}

}  // namespace

TEST_CASE("global_batch sets each row's accumulation steps from its GPU count", "[global_batch]")
{
  const sim::ScenarioSpec spec = app::parse_scenario("gb.yaml", yaml(", global_batch: 4096"), test::catalog());
  REQUIRE(spec.training.global_batch == 4096u);
  const sim::ScenarioReport rep = sim::run_scenario(spec, {});
  REQUIRE(rep.results.size() == 3);
  // 4096 / (32 x 8) = 16 on one node, 8 on two, 4 on four.
  CHECK(rep.results[0].grad_accum_steps == 16);
  CHECK(rep.results[1].grad_accum_steps == 8);
  CHECK(rep.results[2].grad_accum_steps == 4);
  // Every row's optimizer step covers the same 4096 samples.
  for (const sim::ConfigResult& r : rep.results) CHECK(r.samples_per_s * r.step_time_s == Approx(4096.0).epsilon(1e-12));
  // Fewer micro-steps per all-reduce: each row's step is at least its share of the one-node compute.
  CHECK(rep.results[2].step_time_s < rep.results[0].step_time_s / 2);
}

TEST_CASE("global_batch equals the grad_accum_steps a row would be given by hand", "[global_batch]")
{
  const sim::ScenarioSpec by_batch = app::parse_scenario("gb.yaml", yaml(", global_batch: 2048", "[2]"), test::catalog());
  const sim::ScenarioSpec by_hand = app::parse_scenario("gb.yaml", yaml(", grad_accum_steps: 4", "[2]"), test::catalog());
  const sim::ConfigResult a = sim::run_scenario(by_batch, {}).results.at(0);
  const sim::ConfigResult b = sim::run_scenario(by_hand, {}).results.at(0);
  CHECK(a.grad_accum_steps == 4);
  CHECK(a.step_time_s == b.step_time_s);
  CHECK(a.samples_per_s == b.samples_per_s);
}

TEST_CASE("global_batch that is not a whole number of micro-batches is refused with its field", "[global_batch]")
{
  const sim::ScenarioSpec spec = app::parse_scenario("gb.yaml", yaml(", global_batch: 1000"), test::catalog());
  try {
    (void)sim::run_scenario(spec, {});
    FAIL("expected a UserError");
  } catch (const UserError& e) {
    CHECK(e.field() == "training.global_batch");
    CHECK_THAT(e.what(), Catch::Contains("batch_per_gpu x 8 GPUs = 256"));
  }
  CHECK_THROWS_WITH(app::parse_scenario("gb.yaml", yaml(", global_batch: 4096, grad_accum_steps: 2"), test::catalog()),
                    Catch::Contains("either grad_accum_steps or global_batch"));
  CHECK(sim::accum_steps_for(sim::TrainingSpec{}, 8) == 1);  // no global batch: grad_accum_steps
}
