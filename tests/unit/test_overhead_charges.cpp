// Issue 9: the per-step overheads as the iteration charges them, against hand-computed timelines.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "toy_iteration.hpp"

#include "algorithms/registry.hpp"
#include "app/input/scenario_loader.hpp"
#include "sim/step/iteration.hpp"
#include "sim/step/overheads.hpp"
#include "sim/step/reducers.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/twin.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {

// 8 ranks: 1.75 x 4000 B sent per bucket, 2 HBM bytes each, in `each`: an HBM of twice that rate
// leaves compute half its speed while a toy bucket's collective runs.
void half_speed_while_collectives_run(IterationSetup& s, Time each)
{
  s.overheads.wire_bytes_per_byte = 1.75;
  s.overheads.hbm_bytes_per_wire_byte = 2;
  s.overheads.hbm = Bandwidth{2 * 2 * 1.75 * 4000 / each.seconds()};
}

// A backend whose collective takes 150 us plus the schedule's once-per-collective time, where the
// iteration puts the passes a library runs on the collective's stream (Horovod's fusion copies,
// apex's divisions and copy back).
class FixedPlusLatency final : public NetworkBackend {
 public:
  std::string_view name() const override { return "fixed+latency"; }
  std::vector<JobTiming> run(const std::vector<CollectiveJob>& jobs) override
  {
    std::vector<JobTiming> out;
    Time free{0};
    for (const CollectiveJob& j : jobs) {
      const Time start = max(j.ready, free);
      free = start + Time::from_us(150) + j.schedule.fixed_latency;
      out.push_back({start, free});
    }
    return out;
  }
  Time run_steps(const algo::StepSchedule&) override { return Time::from_us(150); }
};

}  // namespace


TEST_CASE("overheads charged: each collective's launch delays its start")
{
  test::Toy toy;
  test::FixedBackend net(Time::from_us(150));
  IterationSetup s = toy.setup(&net);
  s.overheads.launch = Time::from_us(10);
  const IterationResult r = simulate_iteration(s);
  // Buckets start at 610, 810, 1010, 1210 us; the last ends at 1360, then the optimizer.
  CHECK(r.buckets.back().start.us() == Approx(1210));
  CHECK(r.step.us() == Approx(1410));
  CHECK(r.exposed_comm.us() == Approx(160));
  CHECK(r.launch.us() == Approx(40));
}

TEST_CASE("overheads charged: DDP's copies into buckets lengthen backward, the copies out delay the optimizer")
{
  test::Toy toy;
  test::FixedBackend net(Time::from_us(150));
  IterationSetup s = toy.setup(&net);
  s.overheads.copy_hbm = Bandwidth{4e9};  // 4000 B read + written: 2 us per layer in, 2 us out
  const IterationResult r = simulate_iteration(s);
  // Ready at 602, 804, 1006, 1208; the last bucket ends at 1358, copies out 8 us, optimizer 50.
  CHECK(r.buckets.back().ready.us() == Approx(1208));
  CHECK(r.step.us() == Approx(1416));
  CHECK(r.bucket_copy.us() == Approx(16));
}

TEST_CASE("overheads charged: compute overlapped by collectives is slowed by the HBM they take")
{
  test::Toy toy;
  test::FixedBackend net(Time::from_us(150));
  IterationSetup s = toy.setup(&net);
  // 8 ranks: 1.75 x 4000 B sent per bucket, 2 HBM bytes each, in 150 us: 93.33 MB/s of HBM.
  // An HBM of twice that leaves compute half while a collective runs. Each gradient is produced
  // later by the work lost before it (backward starts at 400 us; 200 us of compute per layer):
  //   bucket 0: ready 600, runs 600-750;
  //   bucket 1: 400 us of compute done at 600 + 150 x 0.5 lost -> 875, runs 875-1025;
  //   bucket 2: another 75 us lost -> 1150, runs 1150-1300;
  //   bucket 3: another 75 us lost -> 1425, runs 1425-1575.
  // Backward loses 3 x 75 = 225 us and ends at 1425, when the last gradient exists; the last
  // bucket runs after it, exposed (before round 4 session 6 it ran inside the stretch, hidden).
  half_speed_while_collectives_run(s, Time::from_us(150));
  const IterationResult r = simulate_iteration(s);
  CHECK(r.interference.us() == Approx(225));
  REQUIRE(r.buckets.size() == 4);
  CHECK(r.buckets[1].start.us() == Approx(875));
  CHECK(r.buckets[2].start.us() == Approx(1150));
  CHECK(r.buckets[3].ready.us() == Approx(1425));
  CHECK(r.buckets[3].start.us() == Approx(1425));
  CHECK(r.exposed_comm.us() == Approx(150));
  CHECK(r.step.us() == Approx(1625));  // 1575 + 50 optimizer
}

TEST_CASE("overheads charged: Horovod's buffers move by how much later their gradients exist, not by the cycle's wait")
{
  test::Toy toy;
  test::FixedBackend net(Time::from_us(400));
  IterationSetup s = toy.setup(&net);
  s.framework.framework = Framework::horovod;
  s.framework.cycle_time = Time::from_us(300);
  s.framework.fusion_threshold = Bytes{4000};  // one tensor per buffer
  s.framework.cycle_phase = Time{0};            // cycles aligned with the step's start (hand timeline)
  half_speed_while_collectives_run(s, Time::from_us(400));
  const IterationResult r = simulate_iteration(s);
  // Unslowed, the gradients exist at 600, 800, 1000, 1200 us and the background thread wakes at
  // 600, 900, 1200, 1200. On the slowed backward:
  //   buffer 0: 600, runs 600-1000;
  //   buffer 1: gradient at 800 + 200 lost in 600-1000 -> 1000; its cycle at 900 + 200 -> 1100;
  //   buffer 2: gradient at 1000 + 300 lost -> 1300, released 1200 + 300 = 1500 (slowing the 200
  //             us it waited for its cycle too, inside buffer 1's window, would give 1600);
  //   buffer 3: gradient at 1200 + 500 lost -> 1700, released 1700, runs after buffer 2: 1900-2300.
  REQUIRE(r.buckets.size() == 4);
  CHECK(r.buckets[1].start.us() == Approx(1100));
  CHECK(r.buckets[2].ready.us() == Approx(1500));
  CHECK(r.buckets[2].start.us() == Approx(1500));
  CHECK(r.buckets[3].ready.us() == Approx(1700));
  CHECK(r.buckets[3].start.us() == Approx(1900));
  CHECK(r.interference.us() == Approx(500));  // backward ends at 1700, when the last gradient exists
  CHECK(r.exposed_comm.us() == Approx(600));
  CHECK(r.step.us() == Approx(2350));         // 2300 + 50 optimizer
}

TEST_CASE("overheads charged: Horovod copies a fused buffer in and out on its stream, a lone tensor not")
{
  FixedPlusLatency net;  // Horovod's fusion-buffer copies go in the schedule's fixed time
  test::Toy toy;
  IterationSetup s = toy.setup(&net);
  s.framework.framework = Framework::horovod;
  s.framework.cycle_time = Time::from_us(300);
  s.framework.fusion_threshold = Bytes{8000};  // two tensors fit
  s.framework.cycle_phase = Time{0};
  s.overheads.fusion_copy_hbm = Bandwidth{4e9};
  const IterationResult r = simulate_iteration(s);
  // Ticks at 600 (l0 alone), 900 (l1 alone), 1200 (l2 and l3 fused: 8000 B, copied in and out,
  // read + write each way: 32000 B at 4 GB/s = 8 us on the collective's stream).
  REQUIRE(r.buckets.size() == 3);
  CHECK((r.buckets[0].end - r.buckets[0].start).us() == Approx(150));
  CHECK((r.buckets[1].end - r.buckets[1].start).us() == Approx(150));
  CHECK(r.buckets[2].start.us() == Approx(1200));
  CHECK((r.buckets[2].end - r.buckets[2].start).us() == Approx(158));
  CHECK(r.step.us() == Approx(1408));  // 1358 + 50 optimizer
  s.overheads.fusion_copy_hbm = Bandwidth{0};
  CHECK(simulate_iteration(s).step.us() == Approx(1400));
}

TEST_CASE("overheads charged: fp16 compression casts around the collectives, bucket views still divide")
{
  test::Toy toy;
  test::FixedBackend net(Time::from_us(150));
  IterationSetup s = toy.setup(&net);
  s.framework.bytes_per_element = 4;
  s.framework.fp16_compress = true;
  s.overheads.grad_pass_hbm = Bandwidth{4e9};  // DDP's hook: 10 B per element in, 6 B out
  s.overheads.grad_pass_in_bytes = 10;
  s.overheads.grad_pass_out_bytes = 6;
  const IterationResult r = simulate_iteration(s);
  // 1000 elements per layer: 2.5 us of casts on the compute stream as each gradient is produced
  // (ready at 602.5, 805, 1007.5, 1210 us); the last bucket ends at 1360, 6 us of casts back, then
  // the optimizer.
  REQUIRE(r.buckets.size() == 4);
  CHECK(r.buckets[0].ready.us() == Approx(602.5));
  CHECK(r.buckets.back().ready.us() == Approx(1210));
  CHECK(r.step.us() == Approx(1416));
  CHECK(r.bucket_copy.us() == Approx(16));

  // DDP's hook casts each bucket back in its future's callback, right after that bucket's
  // collective (1.5 us per 1000-element bucket) rather than all of them after the last: the last
  // bucket's cast back ends at 1361.5 us, the optimizer after it. The same bytes are charged.
  s.overheads.grad_pass_out_per_bucket = true;
  const IterationResult per_bucket = simulate_iteration(s);
  CHECK(per_bucket.buckets.back().end.us() == Approx(1360));
  CHECK(per_bucket.step.us() == Approx(1411.5));
  CHECK(per_bucket.bucket_copy.us() == Approx(16));
  s.overheads.grad_pass_out_per_bucket = false;

  // Through a scenario: the hook on fp32 gradients adds (10 + 6) B per parameter at the GPU's
  // achievable HBM (p4d: A100 40GB, 1,555 GB/s x 0.88); on bf16 gradients (2 B) only the hook's
  // in-place division is left, 4 B per parameter.
  auto run = [](const std::string& training) {
    const ScenarioSpec spec = app::parse_scenario(
        "s.yaml", "name: t\ncluster: {instance: p4d.24xlarge, nodes: [2]}\nmodel: {preset: resnet50}\n"
                  "training: {framework: pytorch-ddp, batch_per_gpu: 64, samples: 10000, " + training + "}\n",
        test::catalog());
    return predict(spec, RunOptions{}, 0).results[0];
  };
  const double casts = 16.0 * 25'557'032 / (1555e9 * 0.88);
  CHECK(run("precision: fp32, comm_hook: fp16").bucket_copy_s - run("precision: fp32").bucket_copy_s ==
        Approx(casts).epsilon(1e-6));
  CHECK(run("precision: bf16, comm_hook: fp16").bucket_copy_s - run("precision: bf16").bucket_copy_s ==
        Approx(4.0 * 25'557'032 / (1555e9 * 0.88)).epsilon(1e-6));
  // Bucket views save the copies (4 B read + written each way per fp32 gradient), not the Reducer's
  // in-place division (one read + write).
  const double per_byte = 25'557'032 * 4.0 / (1555e9 * 0.88);
  CHECK(run("precision: fp32").bucket_copy_s == Approx(4 * per_byte).epsilon(1e-6));
  CHECK(run("precision: fp32, gradient_as_bucket_view: true").bucket_copy_s == Approx(2 * per_byte).epsilon(1e-6));
}

TEST_CASE("overheads charged: NCCL's channels take SMs from overlapped compute")
{
  test::Toy toy;
  test::FixedBackend net(Time::from_us(150));
  IterationSetup s = toy.setup(&net);
  s.overheads.sm_count = 10;                // one channel of 10 SMs: compute at 9/10
  s.overheads.hbm = Bandwidth{1e15};        // HBM traffic negligible
  s.overheads.wire_bytes_per_byte = 1.75;
  s.overheads.hbm_bytes_per_wire_byte = 2;
  const IterationResult r = simulate_iteration(s);
  // Each collective takes 1/10 of the SMs: 15 us of compute lost per overlapped bucket, and each
  // gradient is produced that much later per bucket before it: buckets start at 600, 815, 1030
  // and 1245 us. Backward loses 3 x 15 = 45 us and ends at 1245; the last bucket ends at 1395.
  CHECK(r.interference.us() == Approx(45));
  REQUIRE(r.buckets.size() == 4);
  CHECK(r.buckets[3].start.us() == Approx(1245));
  CHECK(r.step.us() == Approx(1445));
}

TEST_CASE("overheads: optimizer bytes per parameter and Horovod's negotiation")
{
  CHECK(optimizer_bytes_per_param(Optimizer::sgd, Precision::fp32) == 20);
  CHECK(optimizer_bytes_per_param(Optimizer::adam, Precision::fp32) == 28);
  CHECK(optimizer_bytes_per_param(Optimizer::adam, Precision::bf16) == 28);  // -2 B grad read, +2 B 16-bit copy
  // Its price per cycle: tests/unit/test_negotiation.cpp.
  // A cycle's buffers are released after the negotiation.
  test::Toy toy;
  FrameworkOptions o;
  o.framework = Framework::horovod;
  o.cycle_time = Time::from_us(1000);
  o.horovod_negotiation = Time::from_us(30);
  const std::vector<CommJob> jobs = plan_communication(
      toy.model, {Time::from_us(900), Time::from_us(700), Time::from_us(500), Time::from_us(300)}, o);
  REQUIRE(jobs.size() == 1);  // all four fused in the cycle at 1000 us
  CHECK(jobs[0].ready.us() == Approx(1030));
}

TEST_CASE("overheads: the scenario knobs parse, bad values are located errors, the catalog has SMs")
{
  const std::string base = "name: t\ncluster:\n  instance: p4d.24xlarge\n  nodes: [1]\nmodel:\n  preset: resnet50\n"
                           "training:\n  framework: pytorch-ddp\n  batch_per_gpu: 32\n  samples: 1000\n"
                           "  gradient_as_bucket_view: true\n";
  const ScenarioSpec s = app::parse_scenario(
      "s.yaml", base + "overheads:\n  interference: false\n  comm_ctas: 4\n  collective_launch: 7us\n"
                       "  optimizer_bytes_per_param: 36\n  horovod_negotiation: 200us\n", test::catalog());
  CHECK(s.training.gradient_as_bucket_view);
  CHECK_FALSE(s.overheads.interference);
  CHECK(s.overheads.comm_ctas == 4);
  CHECK(s.overheads.collective_launch.us() == Approx(7));
  CHECK(*s.overheads.optimizer_bytes_per_param == 36);
  CHECK(s.overheads.horovod_negotiation->us() == Approx(200));
  CHECK_THROWS_WITH(app::parse_scenario("s.yaml", base + "overheads:\n  collective_launch: soon\n", test::catalog()),
                    Catch::Contains("s.yaml:13:22: error: overheads.collective_launch"));
  CHECK_THROWS_WITH(app::parse_scenario("s.yaml", base + "overheads:\n  launch: 5us\n", test::catalog()),
                    Catch::Contains("s.yaml:13:3: error: overheads.launch"));
  CHECK(test::instance("p3.16xlarge").gpu.sm_count == 80);
  CHECK(test::instance("p4d.24xlarge").gpu.sm_count == 108);
  CHECK(test::instance("p5.48xlarge").gpu.sm_count == 132);
  CHECK(test::instance("p4d.24xlarge").gpu.nccl_ctas == 24);
}

TEST_CASE("overheads charged: apex's flatten on the compute stream, its divisions and copy back with the collective")
{
  // The toy's four 1000-element layers in fp32 (4000 B each), one bucket each: apex flattens a
  // bucket on the compute stream (read + write, 8000 B at 4 GB/s = 2 us per layer), then divides,
  // all-reduces, averages and copies back on the collective's stream (6 passes with a
  // pre-division: 24000 B = 6 us; 4 without: 4 us), even for one tensor (Horovod copies only
  // fused ones).
  FixedPlusLatency net;
  test::Toy toy;
  IterationSetup s = toy.setup(&net);
  s.framework.bytes_per_element = 4;
  const IterationResult plain = simulate_iteration(s);
  s.overheads.grad_pass_hbm = Bandwidth{4e9};
  s.overheads.grad_pass_in_bytes = 8;
  s.overheads.fusion_copy_hbm = Bandwidth{4e9};
  s.overheads.fusion_copy_bytes_per_byte = 6;
  s.overheads.fusion_copy_single = true;
  const IterationResult apex = simulate_iteration(s);
  REQUIRE(apex.buckets.size() == plain.buckets.size());
  for (std::size_t b = 0; b < apex.buckets.size(); ++b)
    CHECK((apex.buckets[b].end - apex.buckets[b].start).us() - (plain.buckets[b].end - plain.buckets[b].start).us() ==
          Approx(6.0).margin(1e-3));  // 6 x 4000 B at 4 GB/s
  CHECK(apex.step > plain.step);
  s.overheads.fusion_copy_single = false;  // Horovod's rule: single tensors are not copied
  const IterationResult horovod_rule = simulate_iteration(s);
  CHECK((horovod_rule.buckets[0].end - horovod_rule.buckets[0].start).us() == Approx((plain.buckets[0].end - plain.buckets[0].start).us()));
}
