// Each framework's communication schedule against its documented behaviour (docs/model.md):
// DDP buckets and compression, Horovod's fusion by threshold and cycle time, gradient
// accumulation, Lightning's overhead, SageMaker distribution maps and the SMDDP instance warning.
#include <catch2/catch.hpp>

#include "support.hpp"

#include "algorithms/registry.hpp"

#include "app/input/catalog_loader.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/step/frameworks.hpp"
#include "sim/step/iteration.hpp"
#include "sim/step/model_zoo.hpp"
#include "sim/study/scenario.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {

// `n` layers of one tensor of `numel` elements each; layer i's gradient ready at (n - i) x 1 ms.
ModelSpec chain(int n, std::uint64_t numel)
{
  ModelSpec m{"chain", {}};
  for (int i = 0; i < n; ++i) m.layers.push_back(Layer{"l" + std::to_string(i), {{"w", numel}}, 0, 0});
  return m;
}
std::vector<Time> ready_every_ms(int n, int ms = 1)
{
  std::vector<Time> r;
  for (int i = 0; i < n; ++i) r.push_back(Time::from_us(1000.0 * ms * (n - i)));
  return r;
}

}  // namespace

TEST_CASE("DDP: buckets in gradient-ready order, released when their last gradient is ready")
{
  const ModelSpec m = chain(6, 100'000);  // 400 kB per fp32 tensor
  FrameworkOptions o;
  o.first_bucket_cap = Bytes{1'000'000};
  o.bucket_cap = Bytes{1'000'000};
  const auto jobs = plan_communication(m, ready_every_ms(6), o);
  // l5 l4 l3 (1.2 MB >= 1 MB) | l2 l1 l0.
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].bytes.n == 1'200'000);
  CHECK(jobs[0].ready == Time::from_us(3000));  // l3 is ready third
  CHECK(jobs[1].ready == Time::from_us(6000));

  SECTION("the fp16 compression hook halves the bytes but not the bucket layout")
  {
    o.fp16_compress = true;
    const auto c = plan_communication(m, ready_every_ms(6), o);
    REQUIRE(c.size() == 2);
    CHECK(c[0].bytes.n == 600'000);
    CHECK(c[0].tensors.size() == jobs[0].tensors.size());
  }
  SECTION("fp16/bf16 gradients are half the bytes and fill buckets at half the rate")
  {
    o.bytes_per_element = 2;
    const auto h = plan_communication(m, ready_every_ms(6), o);
    // 200 kB per tensor: l5..l1 make 1.0 MB, then l0 alone.
    REQUIRE(h.size() == 2);
    CHECK(h[0].tensors.size() == 5);
    CHECK(h[0].bytes.n + h[1].bytes.n == 6 * 200'000);
  }
  SECTION("resnet50 has the 1 MiB first bucket, then 25 MiB ones")
  {
    const ModelSpec r50 = make_resnet50();
    FrameworkOptions d;
    const auto b = plan_communication(r50, std::vector<Time>(r50.layers.size()), d);
    CHECK(b.front().bytes.n >= MiB);
    CHECK(b.front().bytes.n < 25 * MiB);
    for (std::size_t i = 1; i + 1 < b.size(); ++i) CHECK(b[i].bytes.n >= 25 * MiB);
  }
}

TEST_CASE("Horovod: tensors ready in the same cycle are fused up to the threshold")
{
  const ModelSpec m = chain(6, 100'000);  // 400 kB each, ready at 1..6 ms
  FrameworkOptions o;
  o.framework = Framework::horovod;
  SECTION("documented defaults: 64 MiB / 5 ms before Nov 2020, 128 MiB / 1 ms after")
  {
    CHECK(horovod_fusion_threshold(o).n == 128 * MiB);
    CHECK(horovod_cycle_time(o) == Time::from_us(1000));
    o.horovod = HorovodDefaults::pre_2020;
    CHECK(horovod_fusion_threshold(o).n == 64 * MiB);
    CHECK(horovod_cycle_time(o) == Time::from_us(5000));
    // 5 ms cycles: ticks at 5 and 10 ms; l5..l1 (ready 1..5 ms) fuse at 5 ms, l0 goes at 10 ms.
    const auto jobs = plan_communication(m, ready_every_ms(6), o);
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].tensors.size() == 5);
    CHECK(jobs[0].ready == Time::from_us(5000));
    CHECK(jobs[1].ready == Time::from_us(10000));
  }
  SECTION("1 ms cycles with tensors 1 ms apart: no fusion at all")
  {
    const auto jobs = plan_communication(m, ready_every_ms(6), o);
    CHECK(jobs.size() == 6);
  }
  SECTION("the threshold splits one cycle's tensors and is never exceeded")
  {
    o.cycle_time = Time::from_us(10'000);
    o.fusion_threshold = Bytes{1'000'000};
    const auto jobs = plan_communication(m, ready_every_ms(6), o);
    REQUIRE(jobs.size() == 3);  // 2 x 400 kB per buffer
    for (const auto& j : jobs) {
      CHECK(j.bytes.n <= 1'000'000);
      CHECK(j.ready == Time::from_us(10'000));
    }
  }
}

namespace {

using test::FixedBackend;

}  // namespace

TEST_CASE("gradient accumulation: k micro-steps of compute, one all-reduce per optimizer step")
{
  const ModelSpec m = chain(4, 1);
  FixedBackend net(Time{150});
  IterationSetup s;
  s.model = &m;
  for (int i = 0; i < 4; ++i) {
    s.times.forward.push_back(Time{100});
    s.times.backward.push_back(Time{200});
  }
  s.times.forward_total = Time{400};
  s.times.backward_total = Time{800};
  s.framework.first_bucket_cap = s.framework.bucket_cap = Bytes{4};
  s.optimizer = Time{50};
  s.collective = [](Bytes) {
    PricedCollective p;
    p.algorithm = &algo::Registry::instance().get("ring");
    return p;
  };
  s.network = &net;
  const IterationResult one = simulate_iteration(s);
  s.accum_steps = 4;
  const IterationResult four = simulate_iteration(s);
  CHECK(four.buckets.size() == one.buckets.size());
  CHECK(four.comm_busy == one.comm_busy);
  CHECK(four.step == one.step + Time{3 * 1200});
  CHECK(four.forward == Time{1600});
  s.accum_steps = 1;
  s.step_overhead = Time{1000};  // Lightning's knob
  CHECK(simulate_iteration(s).step == one.step + Time{1000});
}

namespace {

sim::ScenarioSpec scenario(const std::string& instance, const std::string& training)
{
  static const app::Catalog catalog = app::builtin_catalog();
  const std::string text = "name: t\ncluster: {instance: " + instance +
                           ", nodes: [2]}\nmodel: {preset: resnet18}\ntraining: {batch_per_gpu: 32, steps: 10, " +
                           training + "}\n";
  return app::parse_scenario("t.yaml", text, catalog);
}

}  // namespace

TEST_CASE("frameworks by name or by a SageMaker estimator's distribution map")
{
  CHECK(scenario("ml.p4d.24xlarge", "framework: {pytorchddp: {enabled: true}}").training.framework ==
        Framework::pytorch_ddp);
  CHECK(scenario("ml.p4d.24xlarge", "distribution: {smdistributed: {dataparallel: {enabled: true}}}").training.framework ==
        Framework::smddp);
  CHECK(scenario("ml.p4d.24xlarge", "framework: {mpi: {enabled: true}}").training.framework == Framework::horovod);
  CHECK(scenario("p3.16xlarge", "framework: horovod").training.framework == Framework::horovod);
  CHECK_THROWS_WITH(scenario("p3.16xlarge", "framework: {pytorchddp: {enabled: false}}"), Catch::Contains("t.yaml:"));
  CHECK_THROWS_WITH(scenario("p3.16xlarge", "framework: horovd"), Catch::Contains("did you mean \"horovod\""));
  CHECK_THROWS_WITH(scenario("p3.16xlarge", "framework: {smdistributed: {modelparallel: {enabled: true}}}"),
                    Catch::Contains("dataparallel"));
}

TEST_CASE("SMDDP warns, but runs, outside its supported instances, each framework names its backend")
{
  auto run = [](const std::string& instance, const std::string& fw) {
    return run_scenario(scenario(instance, "framework: " + fw)).results.front();
  };
  const ConfigResult p5 = run("p5.48xlarge", "smddp");
  CHECK(p5.warnings.size() == 1);
  CHECK(p5.algorithm == "herring");
  CHECK(p5.backend == "smddp");
  CHECK(run("ml.p4d.24xlarge", "smddp").warnings.empty());
  CHECK(run("p4d.24xlarge", "pytorch-ddp").backend == "nccl");
  CHECK(run("p4d.24xlarge", "parameter-server").algorithm == "parameter-server");
  const ConfigResult gloo = run("p4d.24xlarge", "gloo");
  const ConfigResult nccl = run("p4d.24xlarge", "pytorch-ddp");
  CHECK(gloo.backend == "gloo");
  CHECK(gloo.comm_s > nccl.comm_s);  // host copies, TCP steps and the host path
  CHECK(gloo.bucket_bytes == nccl.bucket_bytes);
  // On the cube-mesh the ring order is not 0..7: neighbours must still sit on different sockets.
  CHECK_NOTHROW(run("p3dn.24xlarge", "gloo"));
}

TEST_CASE("DDP's first bucket: 1 MiB only when bucket_cap_mb is left to its default (PyTorch 2.x)")
{
  const auto def = scenario("p4d.24xlarge", "framework: pytorch-ddp").training;
  CHECK(def.first_bucket_cap.n == MiB);
  CHECK(def.bucket_cap.n == 25 * MiB);
  const auto given = scenario("p4d.24xlarge", "framework: pytorch-ddp, bucket_cap_mb: 10").training;
  CHECK(given.first_bucket_cap.n == 10 * MiB);
  CHECK(given.bucket_cap.n == 10 * MiB);
  const auto old = scenario("p4d.24xlarge", "framework: pytorch-ddp, bucket_cap_mb: 10, first_bucket_mb: 1").training;
  CHECK(old.first_bucket_cap.n == MiB);
}

TEST_CASE("SMDDP's balanced fusion buffer holds DDP buckets until it exceeds its threshold")
{
  const ModelSpec m = chain(6, 100'000);  // 400 kB tensors
  FrameworkOptions o;
  o.framework = Framework::smddp;
  o.first_bucket_cap = o.bucket_cap = Bytes{400'000};  // one bucket per tensor
  CHECK(plan_communication(m, ready_every_ms(6), o).size() == 6);  // default: no extra fusion
  o.smddp_fusion_threshold = Bytes{1'000'000};
  const auto jobs = plan_communication(m, ready_every_ms(6), o);
  // 400k, 800k, 1.2M > 1M: sent; then the same again.
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].bytes.n == 1'200'000);
  CHECK(jobs[0].ready == Time::from_us(3000));
  CHECK(jobs[1].ready == Time::from_us(6000));
}

TEST_CASE("DDP's find_unused_parameters: the used-parameter map is all-reduced after the last bucket")
{
  const ModelSpec m = chain(6, 100'000);
  FrameworkOptions o;
  o.first_bucket_cap = o.bucket_cap = Bytes{1'000'000};
  const auto plain = plan_communication(m, ready_every_ms(6), o);
  o.find_unused_parameters = true;
  const auto found = plan_communication(m, ready_every_ms(6), o);
  // reducer.cpp: all_reduce_local_used_map() once the last bucket is marked ready, one int32 per
  // parameter tensor, carrying no gradient.
  REQUIRE(found.size() == plain.size() + 1);
  CHECK(found.back().bytes.n == 4 * 6);
  CHECK(found.back().tensors.empty());
  CHECK(found.back().ready == plain.back().ready);
  for (std::size_t i = 0; i < plain.size(); ++i) CHECK(found[i].bytes == plain[i].bytes);
  // With SMDDP's fusion buffer it follows the last buffer; Horovod has no such map.
  o.framework = Framework::smddp;
  o.smddp_fusion_threshold = Bytes{1'000'000};
  CHECK(plan_communication(m, ready_every_ms(6), o).back().bytes.n == 24);
  o.framework = Framework::horovod;
  o.find_unused_parameters = false;
  const auto hvd = plan_communication(m, ready_every_ms(6), o);
  o.find_unused_parameters = true;
  CHECK(plan_communication(m, ready_every_ms(6), o).size() == hvd.size());

  // Through a scenario: the step pays the map's all-reduce after the last bucket, and only DDP's
  // rows; a scenario whose frameworks have no DDP Reducer refuses the key.
  auto row = [](const std::string& extra, std::size_t i) {
    return run_scenario(scenario("p3.16xlarge", "framework: pytorch-ddp, compare: [horovod]" + extra)).results.at(i);
  };
  const ConfigResult ddp = row("", 0), ddp_fu = row(", find_unused_parameters: true", 0);
  CHECK(ddp_fu.step_time_s > ddp.step_time_s);
  CHECK(ddp_fu.comm_s - ddp.comm_s == Approx(ddp_fu.step_time_s - ddp.step_time_s).margin(1e-9));
  CHECK(ddp_fu.comm_s - ddp.comm_s < 1e-3);  // a few hundred bytes: latency only
  CHECK(row(", find_unused_parameters: true", 1).step_time_s == row("", 1).step_time_s);
  CHECK_THROWS_WITH(scenario("p3.16xlarge", "framework: horovod, find_unused_parameters: true"),
                    Catch::Contains("training.find_unused_parameters"));
  CHECK_THROWS_WITH(scenario("p3.16xlarge", "framework: apex-ddp, find_unused_parameters: true"),
                    Catch::Contains("training.find_unused_parameters"));  // apex's DDP has no such map
}

TEST_CASE("apex-ddp: buckets of at least message_size elements, the first one too, flattened and copied around each collective")
{
  // resnet18 in fp32: 11.7 M elements. apex's default message_size (1e7 elements) ships one
  // bucket once 10 M have arrived and the rest at the end: two buckets, the first >= 40 MB;
  // torch DDP's 1 MiB first bucket and 25 MiB ones make more.
  auto run = [](const std::string& training) { return run_scenario(scenario("p4d.24xlarge", training)).results.front(); };
  const ConfigResult apex = run("framework: apex-ddp");
  REQUIRE(apex.bucket_bytes.size() == 2);
  CHECK(apex.bucket_bytes[0] >= 40'000'000);
  CHECK(apex.bucket_bytes[0] + apex.bucket_bytes[1] == 11'689'512ull * 4);
  CHECK(run("framework: pytorch-ddp").bucket_bytes.size() > 2);
  const ConfigResult small = run("framework: apex-ddp, apex: {message_size: 1000000}");
  CHECK(small.bucket_bytes.size() > 2);
  for (std::size_t i = 0; i + 1 < small.bucket_bytes.size(); ++i) CHECK(small.bucket_bytes[i] >= 4'000'000);
  // The pre-division is one more pass over each bucket on the collective's stream.
  const ConfigResult pre = run("framework: apex-ddp, apex: {gradient_predivide_factor: world}");
  CHECK(pre.comm_s > apex.comm_s);
  CHECK(run("framework: apex-ddp, apex: {gradient_predivide_factor: 1}").comm_s == apex.comm_s);
  CHECK(run("framework: apex-ddp, apex: {gradient_predivide_factor: 8}").comm_s == pre.comm_s);
  CHECK_THROWS_WITH(run("framework: apex-ddp, apex: {message_size: 0}"), Catch::Contains("training.apex.message_size"));
  CHECK_THROWS_WITH(run("framework: apex-ddp, apex: {bucket: 1}"), Catch::Contains("training.apex"));
}
