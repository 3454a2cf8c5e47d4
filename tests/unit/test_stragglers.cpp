// Stragglers and jitter (sim/study/whatifs/stragglers.hpp): the ready = max over ranks recurrence by
// hand, a slow loader's steady state, determinism per seed.
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/whatifs/stragglers.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {
// Hand example (seconds): compute 100, bucket 0 ready at 40 taking 30, bucket 1 ready at 100
// taking 20, optimizer 10: nominal step = max(100, 120) + 10 = 130.
NominalStep hand()
{
  NominalStep n;
  n.compute = Time::from_seconds(100);
  n.bucket_ready = {Time::from_seconds(40), Time::from_seconds(100)};
  n.bucket_duration = {Time::from_seconds(30), Time::from_seconds(20)};
  n.optimizer = Time::from_seconds(10);
  return n;
}
}  // namespace

TEST_CASE("no stragglers: every step is the nominal step, nobody waits", "[stragglers]")
{
  StragglerSpec s;
  s.steps = 5;
  const StragglerResult r = simulate_stragglers(hand(), 64, 8, s);
  CHECK(r.nominal_step_s == Approx(130));
  for (double t : r.step_s) CHECK(t == Approx(130));
  CHECK(r.sync_wait_mean_s == 0);
  CHECK(r.slowdown == Approx(1));
}

TEST_CASE("one rank 1.5x slower: the buckets wait for it, by hand", "[stragglers]")
{
  StragglerSpec s;
  s.rank_factor[3] = 1.5;
  s.steps = 2;
  const StragglerResult r = simulate_stragglers(hand(), 8, 4, s);
  // Step 0: ready 60 and 150; buckets 60-90 and 150-170; rank 3 ends max(150, 170) + 15 = 185.
  // Step 1: the others start at 180, rank 3 at 185: ready max(220, 245) = 245 -> 275, and
  // max(280, 335) = 335 -> 355; rank 3 ends max(335, 355) + 15 = 370: step 185.
  REQUIRE(r.step_s.size() == 2);
  CHECK(r.step_s[0] == Approx(185));
  CHECK(r.step_s[1] == Approx(185));
  // Sync wait of the last bucket: 7 ranks wait 50 (step 0) and 55 (step 1), rank 3 none.
  CHECK(r.sync_wait_mean_s == Approx((50.0 * 7 / 8 + 55.0 * 7 / 8) / 2));
  CHECK(r.sync_wait_max_s == Approx(55));
  // A node factor applies to all its ranks (node 1 = ranks 4-7); the slowest sets the pace, so the
  // step times equal those of one slow rank.
  StragglerSpec n;
  n.node_factor[1] = 1.5;
  n.steps = 2;
  CHECK(simulate_stragglers(hand(), 8, 4, n).step_s == r.step_s);
}

TEST_CASE("a slow loader on one node sets the pace in steady state", "[stragglers]")
{
  NominalStep n = hand();
  n.loader = Time::from_seconds(50);  // never binds the nominal 130 s step
  StragglerSpec s;
  s.node_loader[1] = 4;  // node 1: 200 s per batch
  s.steps = 12;
  const StragglerResult r = simulate_stragglers(n, 8, 4, s);
  CHECK(r.nominal_step_s == Approx(130));
  CHECK(r.step_s.back() == Approx(200));
  CHECK(r.step_s.front() == Approx(130));  // the first batch was prefetched
}

TEST_CASE("jitter: seeded, deterministic, p99 >= p50, slower than nominal on average", "[stragglers]")
{
  StragglerSpec s;
  s.jitter_sigma = 0.1;
  s.clock_sigma = 0.02;
  s.steps = 100;
  s.seed = 42;
  const StragglerResult a = simulate_stragglers(hand(), 256, 8, s), b = simulate_stragglers(hand(), 256, 8, s);
  CHECK(a.step_s == b.step_s);
  s.seed = 43;
  CHECK(simulate_stragglers(hand(), 256, 8, s).step_s != a.step_s);
  CHECK(a.step_p99_s >= a.step_p50_s);
  // Mean-one factors, but the step waits for the slowest of 256 ranks: the mean step is longer.
  CHECK(a.step_mean_s > a.nominal_step_s * 1.05);
  CHECK(a.sync_wait_mean_s > 0);
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
    const sim::WhatIfResult* x = r.whatif("stragglers");
    REQUIRE(x);
    CHECK(x->count("ranks") == r.gpus);
    CHECK(x->number("nominal_step_s") == Approx(r.step_time_s).epsilon(1e-9));
    // Rank 9 computes twice as long: every step is at least its forward + backward.
    CHECK(x->number("step_mean_s") >= 2 * r.compute_s);
    CHECK(x->series("step_s").size() == 4);
  }
}
