#include <catch2/catch.hpp>

#include <cmath>

#include "support.hpp"

#include "app/input/catalog_loader.hpp"
#include "sim/network/analytical.hpp"
#include "sim/step/buckets.hpp"
#include "sim/step/compute.hpp"
#include "algorithms/registry.hpp"
#include "sim/step/iteration.hpp"
#include "sim/step/model_zoo.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

TEST_CASE("model presets have the published parameter counts")
{
  CHECK(make_resnet50().parameter_count() == 25'557'032);
  CHECK(make_mlp({10, 20, 1}).parameter_count() == 10 * 20 + 20 + 20 + 1);
  CHECK_THROWS_AS(make_mlp({10}), UserError);
}

TEST_CASE("DDP buckets: reverse registration order, first bucket capped at 1 MiB, closed once full")
{
  // Five layers of 600 KiB fp32 weights each (no bias): 153600 elements.
  ModelSpec m{"toy", {}};
  for (int i = 0; i < 5; ++i) m.layers.push_back(Layer{"l" + std::to_string(i), {{"w", 153600}}, 0, 0});
  auto buckets = ddp_buckets(m, 4, Bytes{MiB}, Bytes{2 * MiB});
  // Order l4 l3 | l2 l1 l0: the first bucket closes at 1200 KiB >= 1 MiB; the second reaches
  // 1800 KiB < 2 MiB and ends with the model.
  REQUIRE(buckets.size() == 2);
  CHECK(buckets[0].tensors.front().layer == 4);
  CHECK(buckets[0].tensors.size() == 2);
  CHECK(buckets[0].bytes.n == 2 * 600 * KiB);
  CHECK(buckets[1].tensors.size() == 3);
  CHECK(buckets[1].tensors.back().layer == 0);

  // resnet50 in fp32 with 25 MiB buckets: every byte in exactly one bucket, each bucket but the
  // last at least its cap, and none overshooting by more than its last tensor.
  ModelSpec r50 = make_resnet50();
  auto rb = ddp_buckets(r50, 4, Bytes{MiB}, Bytes{25 * MiB});
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < rb.size(); ++i) {
    total += rb[i].bytes.n;
    if (i + 1 < rb.size()) CHECK(rb[i].bytes.n >= (i == 0 ? MiB : 25 * MiB));
    const TensorRef last = rb[i].tensors.back();
    const std::uint64_t last_bytes = r50.layers[last.layer].params[last.tensor].numel * 4;
    CHECK(rb[i].bytes.n - last_bytes < (i == 0 ? MiB : 25 * MiB));
  }
  CHECK(total == r50.parameter_count() * 4);
}

TEST_CASE("the roofline scales to a measured step and backward costs twice forward")
{
  const app::Catalog c = app::builtin_catalog();
  const GpuSpec& v100 = c.find("p3.16xlarge")->gpu;
  ModelSpec m = make_resnet50();
  ComputeParams p;
  p.batch_per_gpu = 64;
  LayerTimes t = layer_times(m, v100, p);
  CHECK(t.backward_total > t.forward_total);
  p.measured_step_s = 0.25;
  LayerTimes scaled = layer_times(m, v100, p);
  CHECK((scaled.forward_total + scaled.backward_total).seconds() == Approx(0.25).epsilon(1e-6));
  p.speedup = 2;
  LayerTimes faster = layer_times(m, v100, p);
  CHECK((faster.forward_total + faster.backward_total).seconds() == Approx(0.125).epsilon(1e-6));
}

namespace {

using test::FixedBackend;

IterationSetup toy_setup(NetworkBackend* net, const ModelSpec& m)
{
  IterationSetup s;
  s.model = &m;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    s.times.forward.push_back(Time{100});
    s.times.backward.push_back(Time{200});
  }
  s.times.forward_total = Time{100 * static_cast<std::int64_t>(m.layers.size())};
  s.times.backward_total = Time{200 * static_cast<std::int64_t>(m.layers.size())};
  s.framework.first_bucket_cap = Bytes{4};  // one bucket per layer
  s.framework.bucket_cap = Bytes{4};
  s.optimizer = Time{50};
  s.collective = [](Bytes) {
    PricedCollective p;  // the fixed backend gives every reduction its time
    p.algorithm = &algo::Registry::instance().get("ring");
    return p;
  };
  s.network = net;
  return s;
}

}  // namespace

TEST_CASE("bucket all-reduces overlap backward and only the tail is exposed")
{
  ModelSpec m{"toy", {}};
  for (int i = 0; i < 4; ++i) m.layers.push_back(Layer{"l" + std::to_string(i), {{"w", 1}}, 0, 0});
  SECTION("short all-reduces hide behind backward except the last")
  {
    FixedBackend net(Time{150});
    IterationResult r = simulate_iteration(toy_setup(&net, m));
    // forward 400, backward 800 (grads ready at 600, 800, 1000, 1200), the last bucket ends at 1350.
    CHECK(r.exposed_comm == Time{150});
    CHECK(r.step == Time{1350 + 50});
    CHECK(r.comm_busy == Time{600});
  }
  SECTION("long all-reduces queue on the communication stream")
  {
    FixedBackend net(Time{500});
    IterationResult r = simulate_iteration(toy_setup(&net, m));
    // Starts 600, 1100, 1600, 2100: ends at 2600.
    CHECK(r.buckets.back().start == Time{2100});
    CHECK(r.exposed_comm == Time{2600 - 1200});
  }
  SECTION("a slow input pipeline bounds the step")
  {
    FixedBackend net(Time{0});
    IterationSetup s = toy_setup(&net, m);
    s.loader = Time{5000};
    IterationResult r = simulate_iteration(s);
    CHECK(r.step == Time{5000});
    CHECK(r.loader_wait == Time{5000 - 1250});
  }
}

TEST_CASE("the engine-driven iteration matches hand-computed timelines")
{
  // Two layers of 1 parameter (4 bytes each): forward 100 each, backward 200 each.
  ModelSpec m{"toy2", {}};
  for (int i = 0; i < 2; ++i) m.layers.push_back(Layer{"l" + std::to_string(i), {{"w", 1}}, 0, 0});
  SECTION("two DDP buckets: the first overlaps the second layer's backward")
  {
    FixedBackend net(Time{300});
    IterationResult r = simulate_iteration(toy_setup(&net, m));
    // forward 0-200; l1 backward 200-400 (bucket 0 ready 400, runs 400-700); l0 400-600 (bucket 1
    // ready 600, waits for the stream until 700, runs 700-1000); optimizer 1000-1050.
    REQUIRE(r.buckets.size() == 2);
    CHECK(r.buckets[0].ready == Time{400});
    CHECK(r.buckets[0].start == Time{400});
    CHECK(r.buckets[1].ready == Time{600});
    CHECK(r.buckets[1].start == Time{700});
    CHECK(r.exposed_comm == Time{1000 - 600});
    CHECK(r.step == Time{1050});
  }
  SECTION("Horovod: the background cycle fuses what is ready at each wake-up")
  {
    FixedBackend net(Time{100});
    IterationSetup s = toy_setup(&net, m);
    s.framework.framework = Framework::horovod;
    s.framework.cycle_time = Time{250};
    s.framework.fusion_threshold = Bytes{1024};
    IterationResult r = simulate_iteration(s);
    // Gradients ready at 400 and 600. The thread runs free of the step; its cycles are placed so
    // that the last gradient waits half a cycle (the mean over phases): ticks at 225, 475, 725.
    REQUIRE(r.buckets.size() == 2);
    CHECK(r.buckets[0].ready == Time{475});
    CHECK(r.buckets[1].ready == Time{725});
    CHECK(r.step == Time{725 + 100 + 50});
  }
  SECTION("Horovod: the last gradient waits half a cycle, whatever the step's length")
  {
    // With the cycles aligned to the step's start, the wait was (-end) mod cycle: 150, 90, 220 here.
    for (const double scale : {1.0, 1.1, 1.3}) {
      FixedBackend net(Time{100});
      IterationSetup s = toy_setup(&net, m);
      s.framework.framework = Framework::horovod;
      s.framework.cycle_time = Time{250};
      s.framework.fusion_threshold = Bytes{1024};
      s.classes = {RankClass{1, scale, Time{0}}};
      const IterationResult r = simulate_iteration(s);
      const Time last_gradient{std::llround(600 * scale)};  // forward 200 + backward 400, scaled
      REQUIRE(r.buckets.size() == 2);
      CHECK(r.buckets[1].ready == last_gradient + Time{125});
    }
  }
  SECTION("Horovod: a wake-up at the instant a gradient is ready sees it")
  {
    FixedBackend net(Time{100});
    IterationSetup s = toy_setup(&net, m);
    s.framework.framework = Framework::horovod;
    s.framework.cycle_time = Time{200};  // wakes at 400 and 600, exactly when gradients are ready
    s.framework.cycle_phase = Time{0};   // cycles aligned with the step's start
    s.framework.fusion_threshold = Bytes{1024};
    IterationResult r = simulate_iteration(s);
    REQUIRE(r.buckets.size() == 2);
    CHECK(r.buckets[0].ready == Time{400});
    CHECK(r.buckets[1].ready == Time{600});
  }
  SECTION("a straggler class: collectives wait for the slowest rank")
  {
    FixedBackend net(Time{100});
    IterationSetup s = toy_setup(&net, m);
    s.classes = {RankClass{7, 1.0, Time{0}}, RankClass{1, 1.5, Time{0}}};
    IterationResult r = simulate_iteration(s);
    // The slow class: forward 300, l1 backward 300-600, l0 600-900; buckets ready at 600 and 900.
    CHECK(r.buckets[0].ready == Time{600});
    CHECK(r.buckets[1].ready == Time{900});
    // Slow class ends 1000 + optimizer 75 = 1075; fast class 1000 + 50 = 1050. The fast ranks
    // had their last gradients at 600, the slow at 900: the collectives waited 300 for them.
    CHECK(r.step == Time{1075});
    CHECK(r.sync_wait == Time{300});
    CHECK(r.forward == Time{300});
  }
}

