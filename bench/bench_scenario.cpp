// Issue 21, item 4: `ddpsim scenario` at scale through the same calls as the CLI (load the YAML,
// sim::predict), docs/performance.md. BM_Scenario131k: bench/resnet50_p4d_131072gpu.yaml (ResNet-50
// DDP on 16,384 p4d.24xlarge, analytical, folded) with the default interval samples (the catalog's
// [assume] latency ranges: the screen and 16 samples) and with none (`--samples 0`).
// BM_PerRankFlow16k: 16,384 GPUs on the flow engine with every rank simulated: `--per-rank` on
// bench/resnet50_p4d_16384gpu.yaml (arg 0), and bench/resnet50_p4d_16384gpu_degraded.yaml (arg 1:
// one node's NICs at half rate turn folding off).
#include <benchmark/benchmark.h>

#include "app/cli/malloc_tuning.hpp"
#include "app/input/catalog_loader.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/study/twin.hpp"

using namespace ddpsim;

namespace {

void BM_Scenario131k(benchmark::State& state)
{
  app::keep_freed_memory();  // as the CLI's main() does (process-wide: benchmarks after this one too)
  const app::Catalog catalog = app::builtin_catalog();
  const sim::ScenarioSpec spec = app::load_scenario(DDPSIM_BENCH_DIR "/resnet50_p4d_131072gpu.yaml", catalog);
  const int samples = static_cast<int>(state.range(0));  // sim::kDefaultSamples (-1): auto
  sim::ScenarioReport r;
  for (auto _ : state) r = sim::predict(spec, sim::RunOptions{}, samples);
  const sim::ConfigResult& c = r.results.front();
  state.counters["gpus"] = c.gpus;
  state.counters["step_s"] = c.step_time_s;
  state.counters["step_p90_s"] = c.step_band.set ? c.step_band.p90 : 0.0;
}

void BM_PerRankFlow16k(benchmark::State& state)
{
  app::keep_freed_memory();
  const app::Catalog catalog = app::builtin_catalog();
  const bool degraded = state.range(0) == 1;
  const sim::ScenarioSpec spec = app::load_scenario(
      degraded ? DDPSIM_BENCH_DIR "/resnet50_p4d_16384gpu_degraded.yaml" : DDPSIM_BENCH_DIR "/resnet50_p4d_16384gpu.yaml", catalog);
  sim::RunOptions run;
  run.engine = sim::EngineKind::flow;
  run.per_rank = !degraded;
  sim::ScenarioReport r;
  for (auto _ : state) r = sim::predict(spec, run, 0);
  state.counters["gpus"] = r.results.front().gpus;
  state.counters["step_s"] = r.results.front().step_time_s;
}

}  // namespace

// -1: the default (--samples auto); 0: none.
BENCHMARK(BM_Scenario131k)->ArgName("samples")->Arg(-1)->Arg(0)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerRankFlow16k)->ArgName("degraded")->Arg(0)->Arg(1)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);
