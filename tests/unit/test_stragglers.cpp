// Stragglers and jitter (sim/study/stragglers.hpp): K steps of the engine step with sampled rank
// classes, by hand on a two-layer toy; a slow loader's steady state; determinism per seed; in a
// scenario, no factors give exactly the nominal step (every term of the step is in it).
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/stragglers.hpp"
#include "toy_step.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {
// Nominal: forward 0-200, l1 200-400 (bucket 0: 400-700), l0 400-600 (bucket 1: 700-1000),
// optimizer 1000-1050.
struct Toy : test::ToyStep {
  Toy() : ToyStep(Time{300}) {}
  StragglerResult run(int ranks, int gpn, const StragglerSpec& spec)
  {
    return simulate_stragglers(s, simulate_iteration(s), ranks, gpn, spec);
  }
};
constexpr double ps = 1e-12;
}  // namespace

TEST_CASE("no stragglers: every step is the nominal step, nobody waits", "[stragglers]")
{
  Toy t;
  StragglerSpec s;
  s.steps = 5;
  const StragglerResult r = t.run(64, 8, s);
  CHECK(r.nominal_step_s == Approx(1050 * ps));
  for (double x : r.step_s) CHECK(x == Approx(1050 * ps));
  CHECK(r.sync_wait_mean_s == 0);
  CHECK(r.slowdown == Approx(1));
}

TEST_CASE("one rank 1.5x slower: the buckets wait for it, by hand", "[stragglers]")
{
  Toy t;
  StragglerSpec s;
  s.rank_factor[3] = 1.5;
  s.steps = 2;
  const StragglerResult r = t.run(8, 4, s);
  // Step 0: rank 3 has its gradients at 600 and 900 (buckets 600-900, 900-1200) and ends at
  // 1200 + 75 = 1275. Step 1: the others start at 1250 (1200 + 50), rank 3 at 1275: buckets
  // released at 1275 + 600 = 1875 and 2175, ending 2475; rank 3 ends 2550: step 1275.
  REQUIRE(r.step_s.size() == 2);
  CHECK(r.step_s[0] == Approx(1275 * ps));
  CHECK(r.step_s[1] == Approx(1275 * ps));
  // Sync wait of the last gradients: 7 ranks wait 300 (step 0) and 325 (step 1), rank 3 none.
  CHECK(r.sync_wait_mean_s == Approx((300.0 * 7 / 8 + 325.0 * 7 / 8) / 2 * ps));
  CHECK(r.sync_wait_max_s == Approx(325 * ps));
  // A node factor applies to all its ranks (node 1 = ranks 4-7): the slowest sets the pace.
  StragglerSpec n;
  n.node_factor[1] = 1.5;
  n.steps = 2;
  CHECK(t.run(8, 4, n).step_s == r.step_s);
}

TEST_CASE("a slow loader on one node sets the pace in steady state", "[stragglers]")
{
  Toy t;
  t.s.loader = Time{500};  // never binds the nominal 1050 step
  StragglerSpec s;
  s.node_loader[1] = 4;  // node 1: 2000 per batch
  s.steps = 12;
  const StragglerResult r = t.run(8, 4, s);
  CHECK(r.nominal_step_s == Approx(1050 * ps));
  CHECK(r.step_s.back() == Approx(2000 * ps));
  CHECK(r.step_s.front() == Approx(1050 * ps));  // the first batch was prefetched
}

TEST_CASE("jitter: seeded, deterministic, p99 >= p50, slower than nominal on average", "[stragglers]")
{
  Toy t;
  StragglerSpec s;
  s.jitter_sigma = 0.1;
  s.clock_sigma = 0.02;
  s.steps = 100;
  s.seed = 42;
  const StragglerResult a = t.run(256, 8, s), b = t.run(256, 8, s);
  CHECK(a.step_s == b.step_s);
  s.seed = 43;
  CHECK(t.run(256, 8, s).step_s != a.step_s);
  CHECK(a.step_p99_s >= a.step_p50_s);
  // Mean-one factors, but the step waits for the slowest of 256 ranks: the mean step is longer.
  CHECK(a.step_mean_s > a.nominal_step_s * 1.05);
  CHECK(a.sync_wait_mean_s > 0);
}

TEST_CASE("stragglers without factors are the nominal step, interference and copies included", "[stragglers]")
{
  const std::string text = R"(name: t
cluster: {instance: p4d.24xlarge, nodes: [2]}
model: {preset: resnet50}
training: {framework: pytorch-ddp, batch_per_gpu: 64, samples: 100000}
stragglers: {steps_simulated: 3}
)";
  const auto rep = sim::run_scenario(app::parse_scenario("s.yaml", text, test::catalog()));
  const auto& r = rep.results.front();
  REQUIRE(r.stragglers);
  REQUIRE(r.interference_s > 0);
  REQUIRE(r.bucket_copy_s > 0);
  for (double x : r.stragglers->step_s) CHECK(x == Approx(r.step_time_s).epsilon(1e-9));
}

TEST_CASE("stragglers in a scenario: the nominal step is the simulated iteration's step", "[stragglers]")
{
  const std::string text = R"(name: t
cluster: {instance: p4d.24xlarge, nodes: [2, 4]}
model: {preset: resnet50}
training: {framework: pytorch-ddp, batch_per_gpu: 64, samples: 100000}
data: {workers: 4, per_sample_cpu_s: 1e-3}
stragglers: {steps_simulated: 4, ranks: {9: 2.0}}
)";
  const auto rep = sim::run_scenario(app::parse_scenario("s.yaml", text, test::catalog()));
  for (const auto& r : rep.results) {
    REQUIRE(r.stragglers);
    CHECK(r.stragglers->ranks == r.gpus);
    CHECK(r.stragglers->nominal_step_s == Approx(r.step_time_s).epsilon(1e-9));
    // Rank 9 computes twice as long: every step is at least its forward + backward.
    CHECK(r.stragglers->step_mean_s >= 2 * r.compute_s);
  }
}
