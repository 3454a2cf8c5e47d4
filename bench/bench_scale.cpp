// Speed at 1,024 to 16,384 GPUs (docs/performance.md has the figures, the command and the
// machine). Each benchmark reports simulated GPUs, events (flows or steps simulated) per second
// and peak resident memory per simulated GPU; the flow engine's memory is its child process's.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include "algorithms/registry.hpp"
#include "app/input/catalog_loader.hpp"
#include "sim/network/analytical.hpp"
#include "sim/step/buckets.hpp"
#include "sim/network/flow_backend.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/network/collective_model.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/iteration.hpp"
#include "sim/study/scenario.hpp"
#include "topology/rings.hpp"

using namespace ddpsim;

namespace {

const InstanceSpec& p4d()
{
  static const app::Catalog c = app::builtin_catalog();
  return *c.find("p4d.24xlarge");
}

// One DDP iteration of ResNet-50, fp32, 25 MiB buckets, on `nodes` p4d.24xlarge (the case).
sim::ScenarioSpec resnet50(int nodes)
{
  sim::ScenarioSpec s;
  s.name = "bench";
  s.cluster.instance = p4d();
  s.cluster.nodes = {nodes};
  s.model = sim::make_resnet50();
  s.training.batch_per_gpu = 32;
  s.training.precision = Precision::fp32;
  s.training.bucket_cap = Bytes{25 * MiB};
  s.training.steps = 1;
  return s;
}

double peak_rss_kib(bool children)
{
  rusage u{};
  getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss);
}

// Rates are per wall-clock second (the flow engine works in a child process). `rss_kib`: peak
// resident memory of the process that simulated.
void report(benchmark::State& state, double gpus, double events, double rss_kib)
{
  state.counters["gpus"] = gpus;
  state.counters["events/s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
  state.counters["peak_MiB"] = rss_kib / 1024;
  state.counters["KiB/GPU"] = rss_kib / gpus;
}

// End to end, as `ddpsim scenario` runs it: topology, buckets, schedules, engine.
void BM_Iteration(benchmark::State& state)
{
  const auto engine = static_cast<sim::EngineKind>(state.range(0));
  const int nodes = static_cast<int>(state.range(1));
  const sim::ScenarioSpec spec = resnet50(nodes);
  sim::RunOptions opt;
  opt.engine = engine;
  double step = 0;
  for (auto _ : state) step = sim::run_scenario(spec, opt).results.at(0).step_time_s;
  state.counters["step_s"] = step;
  // Events: the flows of every bucket's all-reduce (one per ring edge) for one iteration.
  const double buckets = static_cast<double>(
      sim::ddp_buckets(spec.model, 4, spec.training.first_bucket_cap, spec.training.bucket_cap).size());
  // Children's peak is the largest of any child so far: this benchmark runs before the bigger ones.
  report(state, nodes * 8.0, buckets * nodes * 8.0 * static_cast<double>(state.iterations()),
         peak_rss_kib(engine == sim::EngineKind::flow));
}
BENCHMARK(BM_Iteration)
    ->ArgNames({"engine", "nodes"})
    ->Args({static_cast<int>(sim::EngineKind::analytical), 128})
    ->Args({static_cast<int>(sim::EngineKind::flow), 128})
    ->Args({static_cast<int>(sim::EngineKind::analytical), 2048})
    ->Args({static_cast<int>(sim::EngineKind::flow), 2048})
    ->UseRealTime()->Unit(benchmark::kMillisecond);

// The same buckets on the flow engine alone, every rank simulated (no symmetry folding): what
// folding saves, and SimGrid's own rate.
void BM_FlowPerRank(benchmark::State& state)
{
  const int nodes = static_cast<int>(state.range(0));
  const Topology topo(p4d(), nodes, 8);
  const sim::ScenarioSpec spec = resnet50(nodes);
  const std::vector<VertexId> ranks = ring_order(topo);
  std::vector<sim::CollectiveJob> jobs;
  for (const sim::Bucket& b : sim::ddp_buckets(spec.model, 4, spec.training.first_bucket_cap, spec.training.bucket_cap))
    jobs.push_back({Time{0}, 0,
                    algo::Registry::instance().get("ring").phases(
                        {algo::CollectiveOp::all_reduce, b.bytes, &topo, ranks, {}, 1}),
                    "bucket"});
  sim::FlowBackend flow(topo);
  flow.set_folding(state.range(1) != 0);
  double comms = 0;
  for (auto _ : state) {
    flow.run(jobs);
    comms += static_cast<double>(flow.last_stats().comms);
  }
  state.counters["folded"] = flow.last_stats().folded;
  report(state, nodes * 8.0, comms, flow.last_stats().peak_rss_kib);
}
BENCHMARK(BM_FlowPerRank)->ArgNames({"nodes", "fold"})->Args({128, 0})->Args({2048, 1})->Args({2048, 0})->UseRealTime()->Unit(benchmark::kMillisecond);

// One flat-ring 1 GiB all-reduce on 1,024 GPUs with the step-level schedule (2 x 1023 x 1024 =
// 2.1 M sends), on the analytical engine; and the same collective as coarse phases on the flow engine.
void BM_FlatRingSteps(benchmark::State& state)
{
  const Topology topo(p4d(), 128, 8);
  const algo::Request req{algo::CollectiveOp::all_reduce, Bytes{GiB}, &topo, ring_order(topo), {}, 1};
  double tasks = 0;
  Time t{0};
  for (auto _ : state) {
    const algo::StepSchedule s = algo::Registry::instance().get("ring").steps(req);
    sim::AnalyticalBackend net(topo);
    t = net.run_steps(s);
    tasks += static_cast<double>(s.tasks.size());
  }
  state.counters["allreduce_s"] = t.seconds();
  report(state, 1024, tasks, peak_rss_kib(false));
}
BENCHMARK(BM_FlatRingSteps)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_FlatRingCoarseFlow(benchmark::State& state)
{
  const Topology topo(p4d(), 128, 8);
  const algo::Request req{algo::CollectiveOp::all_reduce, Bytes{GiB}, &topo, ring_order(topo), {}, 1};
  sim::FlowBackend flow(topo);
  flow.set_folding(false);
  Time t{0};
  double comms = 0;
  for (auto _ : state) {
    const sim::JobTiming j = flow.run({{Time{0}, 0, algo::Registry::instance().get("ring").phases(req), "x"}}).at(0);
    t = j.end - j.start;
    comms += static_cast<double>(flow.last_stats().comms);
  }
  state.counters["allreduce_s"] = t.seconds();
  report(state, 1024, comms, flow.last_stats().peak_rss_kib);
}
BENCHMARK(BM_FlatRingCoarseFlow)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

// Every rank simulated: 16,384 GPUs, each its own rank class on the event engine, one of them
// 20% slower (a straggler); the collectives wait for it. Analytical network.
void BM_PerRankIteration(benchmark::State& state)
{
  const int nodes = static_cast<int>(state.range(0));
  const sim::ScenarioSpec spec = resnet50(nodes);
  const Topology topo(spec.cluster.instance, nodes, 8);
  sim::AnalyticalBackend net(topo);
  const sim::CollectiveModel model(topo, {});
  sim::ComputeParams cp;
  cp.batch_per_gpu = spec.training.batch_per_gpu;
  sim::IterationSetup setup;
  setup.model = &spec.model;
  setup.times = sim::layer_times(spec.model, topo.instance().gpu, cp);
  setup.framework.bucket_cap = spec.training.bucket_cap;
  setup.collective = [&](Bytes b) { return model.price(algo::CollectiveOp::all_reduce, b); };
  setup.network = &net;
  setup.classes.assign(static_cast<std::size_t>(topo.gpu_count()), sim::RankClass{1, 1.0, Time{0}});
  setup.classes[7].compute_scale = 1.2;
  sim::IterationResult r;
  for (auto _ : state) r = sim::simulate_iteration(setup);
  state.counters["step_s"] = r.step.seconds();
  state.counters["sync_wait_s"] = r.sync_wait.seconds();
  report(state, topo.gpu_count(), static_cast<double>(r.events) * static_cast<double>(state.iterations()), peak_rss_kib(false));
}
BENCHMARK(BM_PerRankIteration)->ArgNames({"nodes"})->Arg(2048)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
