// What-if speed (issue 12; docs/performance.md): stragglers with every rank simulated on 16,384
// GPUs, and jitter on 1,024 GPUs over 100 steps, end to end as `ddpsim scenario` runs them.
#include <benchmark/benchmark.h>

#include "app/input/catalog_loader.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/whatifs/stragglers.hpp"

using namespace ddpsim;

namespace {

sim::ScenarioSpec resnet50_p4d(int nodes)
{
  static const app::Catalog c = app::builtin_catalog();
  sim::ScenarioSpec s;
  s.name = "bench";
  s.cluster.instance = *c.find("p4d.24xlarge");
  s.cluster.nodes = {nodes};
  s.model = sim::make_resnet50();
  s.training.batch_per_gpu = 32;
  s.training.precision = Precision::fp32;
  s.training.steps = 1;
  return s;
}

// 2,048 x p4d.24xlarge = 16,384 GPUs, one straggler (rank 5 at 1.2x), 8 steps (the default).
void BM_OneStraggler16k(benchmark::State& state)
{
  sim::ScenarioSpec spec = resnet50_p4d(2048);
  sim::StragglerSpec s;
  s.rank_factor[5] = 1.2;
  spec.whatifs.push_back(sim::stragglers_whatif(s));
  sim::RunOptions opt;
  opt.engine = static_cast<sim::EngineKind>(state.range(0));
  double slowdown = 0;
  for (auto _ : state) slowdown = sim::run_scenario(spec, opt).results.at(0).whatif("stragglers")->number("slowdown");
  state.counters["gpus"] = 16384;
  state.counters["slowdown"] = slowdown;
}
BENCHMARK(BM_OneStraggler16k)
    ->ArgName("engine")
    ->Arg(static_cast<int>(sim::EngineKind::analytical))
    ->Arg(static_cast<int>(sim::EngineKind::flow))
    ->UseRealTime()->Unit(benchmark::kMillisecond);

// 128 x p4d.24xlarge = 1,024 GPUs, per-step jitter (sigma 5%) and clock spread, 100 steps.
void BM_Jitter1k100Steps(benchmark::State& state)
{
  sim::ScenarioSpec spec = resnet50_p4d(128);
  sim::StragglerSpec s;
  s.jitter_sigma = 0.05;
  s.clock_sigma = 0.01;
  s.steps = 100;
  spec.whatifs.push_back(sim::stragglers_whatif(s));
  double p99 = 0;
  for (auto _ : state) p99 = sim::run_scenario(spec).results.at(0).whatif("stragglers")->number("step_p99_s");
  state.counters["gpus"] = 1024;
  state.counters["step_p99_s"] = p99;
}
BENCHMARK(BM_Jitter1k100Steps)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
