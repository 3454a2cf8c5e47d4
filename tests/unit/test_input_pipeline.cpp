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
