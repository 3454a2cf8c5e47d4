// Issue 18 item 3: a node's vCPUs are shared by all its GPUs' loader workers (sim/step/loader.hpp).
#include <catch2/catch.hpp>

#include "app/input/scenario_loader.hpp"
#include "sim/step/loader.hpp"
#include "sim/study/scenario.hpp"
#include "support.hpp"

using namespace ddpsim;

TEST_CASE("loader vCPUs: the node's vCPUs less one per training process, shared by its GPUs")
{
  CHECK(sim::loader_vcpus(7, 64, 8) == Approx(7));    // p3.16xlarge: 64 vCPUs, 8 GPUs: 7 each
  CHECK(sim::loader_vcpus(16, 64, 8) == Approx(7));   // more workers add no CPU
  CHECK(sim::loader_vcpus(16, 64, 1) == Approx(16));  // one GPU: 63 free, 16 asked
  CHECK(sim::loader_vcpus(4, 0, 8) == Approx(4));     // vCPUs unknown: as asked
  CHECK(sim::loader_vcpus(4, 8, 8) == Approx(1));     // as many vCPUs as GPUs: time-shared
  CHECK(sim::loader_time(1000, 1e-3, 16, 64, 8).seconds() == Approx(1.0 / 7));
}

TEST_CASE("input pipeline: workers sized for one GPU make eight GPUs of a node input-bound")
{
  const auto spec = app::parse_scenario("t.yaml", R"(name: t
cluster: {instance: ml.p3.16xlarge, nodes: [1, 1], gpus_per_node: [1, 8]}
model: {preset: resnet50}
training: {framework: pytorch-ddp, batch_per_gpu: 256, precision: fp16, steps: 10}
data: {workers: 16, per_sample_cpu_s: 8e-3}
)",
                                        test::catalog());
  const sim::ScenarioReport r = sim::run_scenario(spec);
  REQUIRE(r.results.size() == 2);
  const sim::ConfigResult &one = r.results[0], &eight = r.results[1];
  REQUIRE(one.gpus == 1);
  REQUIRE(eight.gpus == 8);
  // One GPU: 16 workers on 16 of 63 free vCPUs; eight: 7 vCPUs each (64 - 8 = 56 shared by 8).
  CHECK(eight.step_time_s == Approx(256 * 8e-3 / 7).epsilon(1e-6));
  CHECK(one.step_time_s < 256 * 8e-3 / 7);  // one GPU: not bound by 7 vCPUs' worth of loading
  CHECK(eight.bound == "input");
  const double scaling = eight.samples_per_s / one.samples_per_s;  // 8 x one GPU's would be linear
  CHECK(scaling == Approx(8 * one.step_time_s / eight.step_time_s).epsilon(1e-6));
  CHECK(scaling < 8 * 0.55);
}

TEST_CASE("loader: busy-polling network threads take the loader's share of the vCPUs only when they are all taken")
{
  // p3.16xlarge: 56 free vCPUs, 8 GPUs x 7 workers = 56: 8 spinning threads make 64 runnable.
  CHECK(sim::loader_share_lost(7, 64, 8, 8) == Approx(1.0 - 56.0 / 64.0));
  CHECK(sim::loader_share_lost(7, 64, 8, 0) == 0);
  CHECK(sim::loader_share_lost(3, 64, 8, 8) == 0);  // 24 workers + 8 threads fit in 56 vCPUs
  CHECK(sim::loader_share_lost(6, 64, 8, 16) == Approx(1.0 - 56.0 * 48.0 / 64.0 / 48.0));  // 48 + 16 > 56
  CHECK(sim::loader_share_lost(7, 0, 8, 8) == 0);  // vCPUs unknown
}

TEST_CASE("loader: NCCL's socket threads slow an input-bound step across nodes by their share while collectives run")
{
  const std::string yaml = R"(name: t
cluster: {instance: ml.p3.16xlarge, nodes: [1, 2]}
model: {preset: mlp, widths: [1024, 4096, 4096, 1]}
training: {framework: pytorch-ddp, batch_per_gpu: 512, precision: fp32, steps: 10}
data: {workers: 7, per_sample_cpu_s: 6e-3}
)";
  const sim::ScenarioReport now = sim::run_scenario(app::parse_scenario("t.yaml", yaml, test::catalog()));
  // NCCL 2.4.6: the proxy thread drives one socket per connection (no helper threads to spin).
  const sim::ScenarioReport old = sim::run_scenario(
      app::parse_scenario("t.yaml", yaml + "software: {nccl: 2.4.6}\n", test::catalog()));
  REQUIRE(now.results.size() == 2);
  const double loader = 512 * 6e-3 / 7;
  for (const sim::ScenarioReport* r : {&now, &old}) CHECK(r->results[0].step_time_s == Approx(loader).epsilon(1e-6));
  const sim::ConfigResult& two = now.results[1];
  REQUIRE(two.bound == "input");
  // 8 threads beside 56 workers on 56 vCPUs: the workers run at 56/64 while the collectives do.
  CHECK(two.step_time_s == Approx(loader + two.comm_s * (1.0 - 56.0 / 64.0)).epsilon(1e-6));
  CHECK(two.step_time_s > loader + 3e-3);  // 32 ms of collectives, 1/8 of the loader lost for them
  CHECK(old.results[1].step_time_s == Approx(loader).epsilon(1e-6));  // no helper threads in 2.4.6
}
