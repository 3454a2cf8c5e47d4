// Issue 19: a real trace in (rank 0 of a 2-rank ResNet-50 DDP job on A100, tests/data/traces):
// the predicted step at the traced size reproduces the traced median step, the buckets are the
// traced all-reduces, and another GPU scales the kernel time only.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/study/twin.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/traced.hpp"
#include "support.hpp"

using namespace ddpsim;

namespace {

std::string scenario_path() { return std::string(DDPSIM_SOURCE_DIR) + "/scenarios/resnet50_a100_trace.yaml"; }

const sim::ConfigResult& row(const sim::ScenarioReport& r, int gpus)
{
  for (const sim::ConfigResult& c : r.results)
    if (c.gpus == gpus) return c;
  FAIL("no row with " << gpus << " GPUs");
  return r.results.front();
}

}  // namespace

TEST_CASE("traced ResNet-50: 2 ranks reproduce the traced median step, buckets as traced", "[trace]")
{
  const sim::ScenarioSpec spec = app::load_scenario(scenario_path(), test::catalog());
  REQUIRE(spec.model.traced);
  const sim::TracedModel& t = *spec.model.traced;
  CHECK(t.ranks == 2);
  CHECK(t.steps == 3);
  CHECK(t.step.seconds() == Approx(0.22244219).epsilon(1e-6));  // ProfilerStep#4-6: 222.44, 219.73, 224.94 ms
  REQUIRE(t.gpu);
  CHECK(t.gpu->name == "A100-SXM4-40GB");
  const sim::ScenarioReport rep = sim::run_scenario(spec);
  const sim::ConfigResult& two = row(rep, 2);
  INFO("predicted " << two.step_time_s << " s, traced " << t.step.seconds() << " s");
  CHECK(std::fabs(two.step_time_s / t.step.seconds() - 1) < 0.03);
  // The traced all-reduces (record_param_comms "In msg nelems", Float): ResNet-50's 25,557,032
  // parameters in DDP's five buckets, fc first.
  const std::vector<std::uint64_t> traced{2049000 * 4, 7875584 * 4, 6563840 * 4, 6637568 * 4, 2431040 * 4};
  CHECK(two.bucket_bytes == traced);
  CHECK(spec.model.parameter_count() == 25557032);
  // Other sizes keep the measured compute, at the pace of their slowest GPU (the traced rank is one
  // GPU of its job, sim/step/compute.hpp slowest_gpu_factor); more GPUs add communication.
  const double spread = spec.compute.gpu_spread;
  CHECK(row(rep, 16).compute_s ==
        Approx(two.compute_s * sim::slowest_gpu_factor(16, spread) / sim::slowest_gpu_factor(2, spread)));
  CHECK(row(rep, 16).step_time_s >= two.step_time_s);
  // One GPU: each bucket's collective is only its launch latency (as every 1-GPU row of the model).
  CHECK(row(rep, 1).comm_s < 1e-4);
  CHECK(row(rep, 1).comm_s < two.comm_s);
}

TEST_CASE("traced ResNet-50 on another GPU: kernel time scaled by the catalog ratio, with an interval", "[trace]")
{
  sim::ScenarioSpec spec = app::load_scenario(scenario_path(), test::catalog());
  const sim::ScenarioReport a100 = sim::run_scenario(spec);
  spec.cluster.instance = test::instance("p5.48xlarge");
  spec.cluster.instance.name = "p5.48xlarge";
  const sim::GpuRatio g = sim::gpu_ratio(*spec.model.traced, spec.cluster.instance.gpu, spec.training.precision);
  REQUIRE(g.scaled);
  CHECK(g.low < g.point);
  CHECK(g.point < g.high);
  CHECK(g.high < 1);  // H100 is faster on both counts
  const sim::ScenarioReport h100 = sim::run_scenario(spec);
  // Only the kernel part shrinks: this trace is mostly host-bound, so the step shrinks a little.
  const double kernels = sim::traced_compute_factor(*spec.model.traced, 0);
  CHECK(h100.results[1].compute_s == Approx(a100.results[1].compute_s * sim::traced_compute_factor(*spec.model.traced, g.point)));
  CHECK(h100.results[1].compute_s > a100.results[1].compute_s * kernels);
  CHECK(h100.results[1].compute_s < a100.results[1].compute_s);
  const sim::ScenarioReport with_band = sim::predict(spec, sim::RunOptions{}, 16);
  bool said = false;
  for (const std::string& n : with_band.notes) said = said || n.find("compute scaled from A100-SXM4-40GB to H100") != std::string::npos;
  CHECK(said);
  REQUIRE(with_band.results[1].step_band.set);
  CHECK(with_band.results[1].step_band.p10 < with_band.results[1].step_band.p90);
}
