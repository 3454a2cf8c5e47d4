// Failures and checkpoints (sim/study/whatifs/resilience.hpp): closed forms against hand computations
// and the papers' worked examples; the Monte Carlo against the closed form; the YAML section.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/input/resilience_loader.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/study/whatifs/resilience.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

TEST_CASE("checkpoint size: weights, fp32 master copy under mixed precision, optimizer states", "[resilience]")
{
  // 1e9 parameters: bf16 weights 2 B + fp32 master 4 B + Adam m and v 8 B = 14 GB.
  CHECK(checkpoint_bytes(1'000'000'000, Precision::bf16, Optimizer::adam).n == 14'000'000'000ull);
  // fp32 weights 4 B + SGD momentum 4 B.
  CHECK(checkpoint_bytes(1'000'000'000, Precision::fp32, Optimizer::sgd).n == 8'000'000'000ull);
  CHECK(checkpoint_bytes(10, Precision::fp16, Optimizer::sgd).n == 100);
}

TEST_CASE("Young's and Daly's optimal checkpoint intervals", "[resilience]")
{
  // Young: sqrt(2 x 300 s x 86400 s) = 7200 s exactly.
  CHECK(young_interval(300, 86400) == Approx(7200).epsilon(1e-12));
  // Daly (FGCS 22(3), 2006) worked examples with delta = 5 min: M = 24 h -> 117 min, 6 h -> 57 min,
  // 15 min -> 9.1 min (as printed, rounded).
  CHECK(daly_interval(300, 24 * 3600) / 60 == Approx(117).margin(0.5));
  CHECK(daly_interval(300, 6 * 3600) / 60 == Approx(57).margin(0.5));
  CHECK(daly_interval(300, 15 * 60) / 60 == Approx(9.1).margin(0.05));
  // Beyond delta >= 2M Daly's rule is tau = M.
  CHECK(daly_interval(1000, 400) == 400);
}

TEST_CASE("Daly's expected wall time: hand computation and limits", "[resilience]")
{
  // W = 100 h, tau = 1 h, delta = 0.1 h, R = 0.2 h, M = 10 h (in hours; the formula is unit-free):
  // 10 x e^0.02 x (e^0.11 - 1) x 100 = 10 x 1.0202013 x 0.1162781 x 100 = 118.6270 h.
  CHECK(expected_wall_time(100, 1, 0.1, 0.2, 10) == Approx(118.6270).epsilon(1e-5));
  // No failures (M -> infinity): only the checkpoints cost, W (tau + delta) / tau.
  CHECK(expected_wall_time(100, 1, 0.1, 0.2, 1e12) == Approx(110).epsilon(1e-6));
  // Daly's interval is (nearly) the minimiser of his expected time: no tau on a fine grid does
  // better by more than 0.01%.
  const double delta = 300, m = 6 * 3600, r = 900, w = 1e6;
  const double at_daly = expected_wall_time(w, daly_interval(delta, m), delta, r, m);
  double best = at_daly;
  for (double tau = 60; tau < 20000; tau += 5) best = std::min(best, expected_wall_time(w, tau, delta, r, m));
  CHECK(at_daly <= best * 1.0001);
  // ... and better than checkpointing 4x too often or too rarely.
  CHECK(at_daly < expected_wall_time(w, daly_interval(delta, m) / 4, delta, r, m));
  CHECK(at_daly < expected_wall_time(w, daly_interval(delta, m) * 4, delta, r, m));
}

TEST_CASE("Monte Carlo of the failure process: converges to Daly's closed form, deterministic per seed",
          "[resilience]")
{
  // Hours: 1000 h of work, checkpoint every 2 h taking 0.1 h, restart 0.5 h, job MTBF 20 h.
  const FailureProcess p{1000, 2, 0.1, 0.5, 20};
  const int n = 4000;
  const std::vector<double> t = monte_carlo_wall_times(p, n, 7);
  double mean = 0, sq = 0;
  for (double v : t) mean += v / n;
  for (double v : t) sq += (v - mean) * (v - mean) / (n - 1);
  const double closed = expected_wall_time(1000, 2, 0.1, 0.5, 20);
  CHECK(std::abs(mean - closed) < 4 * std::sqrt(sq / n));
  for (double v : t) CHECK(v >= 1000 * 2.1 / 2 - 1e-9);  // never faster than failure-free
  CHECK(monte_carlo_wall_times(p, 50, 7) == std::vector<double>(t.begin(), t.begin() + 50));
  CHECK(monte_carlo_wall_times(p, 50, 8) != std::vector<double>(t.begin(), t.begin() + 50));
  // Without failures every trial takes exactly W (tau + delta) / tau, including a shorter last segment.
  for (double v : monte_carlo_wall_times({999, 2, 0.1, 0.5, 1e15}, 5, 1)) CHECK(v == Approx(499 * 2.1 + 1 + 0.1));
}

TEST_CASE("evaluate_resilience: job MTBF, writes, reads and restart by hand", "[resilience]")
{
  ResilienceSpec s;
  s.node_mtbf_s = 1600 * 3600.0;  // 16 nodes -> job MTBF 100 h
  s.restart = Time::from_seconds(600);
  s.requeue = Time::from_seconds(300);
  s.checkpoint.size = Bytes{100'000'000'000ull};
  s.checkpoint.storage = {"fsx", Bandwidth::gBps(2), Bandwidth::gBps(2), Bandwidth::gBps(3), Bandwidth::gBps(3), true, ""};
  const ResilienceResult r = evaluate_resilience(s, 1, Precision::fp32, Optimizer::sgd, 16, 8, 1000 * 3600.0);
  CHECK(r.job_mtbf_s == Approx(100 * 3600.0));
  CHECK(r.checkpoint_write_s == Approx(50));              // rank 0 alone: 100 GB at 2 GB/s
  CHECK(r.checkpoint_read_s == Approx(100e9 / (3e9 / 16)));  // 16 nodes share 3 GB/s
  CHECK(r.restart_s == Approx(900 + 100e9 / (3e9 / 16)));
  CHECK(r.interval_s == Approx(daly_interval(50, 360000)));
  CHECK(r.expected_time_s == Approx(expected_wall_time(3.6e6, r.interval_s, 50, r.restart_s, 360000)));
  CHECK(r.efficiency < 1);
  // Sharded writes: each of 16 nodes writes 1/16, the aggregate 3 GB/s binds -> 100 GB / 3 GB/s.
  s.checkpoint.writers = Writers::every_node;
  CHECK(evaluate_resilience(s, 1, Precision::fp32, Optimizer::sgd, 16, 8, 3.6e6).checkpoint_write_s == Approx(100.0 / 3));
  // Per-GPU MTBF: a node of 8 GPUs fails 8x as often as one GPU.
  s.node_mtbf_s = 0;
  s.gpu_mtbf_s = kLlama3GpuMtbfHours * 3600;
  CHECK(evaluate_resilience(s, 1, Precision::fp32, Optimizer::sgd, 1, 8, 3.6e6).job_mtbf_s ==
        Approx(54.0 * 24 * 3600 * 16384 / 419 / 8));
  // A job that fails far faster than it can checkpoint is refused, not run forever.
  s.gpu_mtbf_s = 60;
  CHECK_THROWS_AS(evaluate_resilience(s, 1, Precision::fp32, Optimizer::sgd, 16, 8, 3.6e6), UserError);
}

TEST_CASE("resilience YAML: storage from the catalog with overrides, bad input named", "[resilience]")
{
  const auto storage = app::builtin_storage();
  REQUIRE(storage.count("fsx") == 1);
  // FSx: 12 TiB x 250 MB/s per TiB.
  CHECK(storage.at("fsx").write_aggregate.bytes_per_s == Approx(12 * 250e6));
  // S3: 3,500 PUT/s x 16 MiB parts per prefix.
  CHECK(storage.at("s3").write_aggregate.bytes_per_s == Approx(3500.0 * 16 * MiB));
  CHECK_FALSE(storage.at("nvme").survives_node_loss);

  const std::string base = R"(name: t
cluster: {instance: p4d.24xlarge, nodes: [1, 2]}
model: {preset: resnet50}
training: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}
)";
  // The section as read (the model keeps its spec: app/whatifs/resilience.cpp builds it from this).
  auto spec_of = [](const std::string& section) {
    app::Reader r("s.yaml");
    sim::ResilienceSpec spec;
    app::read_resilience(r, app::parse_yaml("s.yaml", section), spec);
    r.finish();
    return spec;
  };
  const sim::ResilienceSpec s = spec_of(R"(node_mtbf: 2000h
checkpoint: {every: 30min, storage: {kind: fsx, capacity: 24TiB}}
restart: 10min
requeue: 5min
monte_carlo: {trials: 10, seed: 3}
)");
  CHECK(s.node_mtbf_s == 2000 * 3600.0);
  CHECK(s.checkpoint.every->seconds() == 1800);
  CHECK(s.checkpoint.storage.write_aggregate.bytes_per_s == Approx(24 * 250e6));
  CHECK(s.monte_carlo_trials == 10);
  const sim::ResilienceSpec d = spec_of("{restart: 1min, requeue: 0s, checkpoint: {storage: s3}}");
  CHECK(d.gpu_mtbf_s == Approx(kLlama3GpuMtbfHours * 3600));
  CHECK_FALSE(d.checkpoint.every);
  // In a scenario: the what-if on every row, from the same section.
  const sim::ScenarioSpec sc = app::parse_scenario("s.yaml", base + "resilience: {restart: 1min, requeue: 0s, checkpoint: {storage: s3}}\n",
                                                   test::catalog());
  REQUIRE(sc.whatifs.size() == 1);
  CHECK(sc.whatifs.front()->name() == "resilience");

  auto error_of = [&](const std::string& tail) -> std::string {
    try {
      app::parse_scenario("s.yaml", base + tail, test::catalog());
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(error_of("resilience: {restart: 1min, requeue: 0s, checkpoint: {storage: fxs}}\n"),
             Catch::Contains("s.yaml:5:") && Catch::Contains("resilience.checkpoint.storage") && Catch::Contains("fsx"));
  CHECK_THAT(error_of("resilience: {node_mtbf: 2000, restart: 1min, requeue: 0s, checkpoint: {storage: s3}}\n"),
             Catch::Contains("resilience.node_mtbf"));
  CHECK_THAT(error_of("resilience: {restart: 10min, requeue: 0s}\n"), Catch::Contains("resilience.checkpoint"));
  // Issue 20: no silent 0 s restart or re-queue.
  CHECK_THAT(error_of("resilience: {requeue: 0s, checkpoint: {storage: s3}}\n"),
             Catch::Contains("resilience.restart") && Catch::Contains("no default"));
  CHECK_THAT(error_of("resilience: {restart: 1min, checkpoint: {storage: s3}}\n"),
             Catch::Contains("resilience.requeue") && Catch::Contains("no default"));
}
