// `ddpsim plan` speed: bench/plan_10000.yaml (11,200 configurations) evaluated with --jobs 1
// and 2; the target is <= 60 s on 2 cores (docs/performance.md).
#include <benchmark/benchmark.h>

#include "app/input/catalog_loader.hpp"
#include "app/input/plan_loader.hpp"
#include "sim/study/plan.hpp"

using namespace ddpsim;

namespace {

void BM_Plan(benchmark::State& state)
{
  const app::Catalog catalog = app::builtin_catalog();
  const int jobs = static_cast<int>(state.range(0));
  std::size_t configurations = 0;
  for (auto _ : state) {
    const app::PlanInput in = app::load_plan(DDPSIM_BENCH_DIR "/plan_10000.yaml", catalog);
    const sim::PlanReport rep = sim::decide(in.variants, sim::evaluate_variants(in.variants, jobs), in.goal);
    benchmark::DoNotOptimize(rep.recommended);
    configurations = rep.rows.size();
  }
  state.counters["configurations"] = static_cast<double>(configurations);
  state.counters["configs/s"] = benchmark::Counter(static_cast<double>(configurations), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_Plan)->ArgName("jobs")->Arg(2)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK_MAIN();
