// sim/step/overheads and sim/step/interference: each function against a hand computation.
#include <catch2/catch.hpp>

#include "sim/step/interference.hpp"
#include "sim/step/overheads.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

TEST_CASE("overlap slowdown: SMs taken by NCCL's channels, or HBM taken by its traffic")
{
  // H100: 132 SMs, 16 NVLS channels: 132 / 116 = 1.138; no HBM pressure worth the name.
  CHECK(overlap_slowdown(16, 132, Bandwidth{1e9}, Bandwidth{3350e9}) == Approx(132.0 / 116));
  // Heavy HBM traffic wins: 3 x 370 GB/s of a 3,350 GB/s HBM leaves 2,240: 1.496.
  CHECK(overlap_slowdown(16, 132, Bandwidth{3 * 370e9}, Bandwidth{3350e9}) == Approx(3350.0 / (3350 - 1110)));
  CHECK(overlap_slowdown(0, 80, Bandwidth{0}, Bandwidth{900e9}) == Approx(1.0));
  CHECK_THROWS(overlap_slowdown(80, 80, Bandwidth{0}, Bandwidth{900e9}));
}

TEST_CASE("bucket copy, launch, staging, host reduction")
{
  // 100 MB of gradients on a V100 (900 GB/s): in and out of the bucket, 400 MB of traffic.
  CHECK(bucket_copy_time(Bytes{100'000'000}, Bandwidth{900e9}, false).seconds() == Approx(4e8 / 900e9));
  CHECK(bucket_copy_time(Bytes{100'000'000}, Bandwidth{900e9}, true) == Time{0});
  CHECK(launch_cost(10, Time::from_us(5)).us() == Approx(50));
  // A server summing 8 workers' 10 MB: reads 80 MB, writes 10 MB at 128 GB/s.
  CHECK(host_reduction_time(Bytes{10'000'000}, 8, Bandwidth{128e9}).seconds() == Approx(9e7 / 128e9));
}

TEST_CASE("slowed finish: compute that needs W of full-speed time, through windows that slow it")
{
  const auto us = [](double v) { return Time::from_us(v); };
  const std::vector<SlowWindow> none;
  CHECK(slowed_finish(us(400), us(300), none).us() == Approx(700));
  // Half speed in 600-750: 200 us done by 600, 75 more by 750, the last 25 at full speed.
  const std::vector<SlowWindow> half{{us(600), us(750), 0.5}};
  CHECK(slowed_finish(us(400), us(300), half).us() == Approx(775));
  CHECK(slowed_finish(us(400), us(200), half).us() == Approx(600));  // done before the window opens
  CHECK(slowed_finish(us(400), us(250), half).us() == Approx(700));  // done inside it
  // Stopped (a cooperative kernel waits for the collective): the window adds its whole length.
  const std::vector<SlowWindow> stop{{us(600), us(750), 0.0}, {us(900), us(1000), 0.0}};
  CHECK(slowed_finish(us(400), us(300), stop).us() == Approx(850));   // 200 by 600, 100 after 750
  CHECK(slowed_finish(us(400), us(600), stop).us() == Approx(1250));
  // A window that ended before compute starts changes nothing; one that began before it counts
  // from compute's start.
  const std::vector<SlowWindow> early{{us(100), us(300), 0.0}, {us(350), us(500), 0.5}};
  CHECK(slowed_finish(us(400), us(100), early).us() == Approx(550));  // 50 by 500, 50 more
  CHECK(slowed_finish(us(400), Time{0}, early) == Time::from_us(400));
}

TEST_CASE("interference: speed lost beside each collective, releases moved, backward grown to its fixed point")
{
  const auto us = [](double v) { return Time::from_us(v); };
  IterationOverheads o;
  o.hbm = Bandwidth{900e9};
  o.sm_count = 80;
  o.comm_ctas = 20;  // 80 / 60: a quarter of the speed lost
  std::vector<BucketTiming> buckets(2);
  buckets[0].start = us(200), buckets[0].end = us(600), buckets[0].ready = us(150);
  buckets[1].start = us(700), buckets[1].end = us(700), buckets[1].ready = us(650);  // takes no time
  std::vector<double> lost = speed_lost(buckets, o);
  CHECK(lost[0] == Approx(0.25));
  CHECK(lost[1] == 0.0);
  o.serialized = true;  // cooperative kernels: all of it
  CHECK(speed_lost(buckets, o)[0] == 1.0);

  // Backward [0, 1000] beside bucket 0's [200, 600] at a quarter lost: I = 0.25 x 400 = 100 us.
  CHECK(interference_time(buckets, lost, us(0), us(1000)).us() == Approx(100).epsilon(1e-6));
  // A collective past backward's end is counted as far as the grown backward reaches it:
  // I = 0.5 x (min(2000, 1000 + I) - 500), the fixed point I = 500 us (to a nanosecond).
  std::vector<BucketTiming> late(1);
  late[0].start = us(500), late[0].end = us(2000);
  CHECK(interference_time(late, {0.5}, us(0), us(1000)).us() == Approx(500).margin(0.002));
  CHECK(interference_time(late, {0.0}, us(0), us(1000)) == Time{0});

  // Bucket 1's gradient, produced at 700 us on the unslowed backward (started at 0), exists 100 us
  // later on the slowed one (a quarter lost over bucket 0's 400 us): its release and collective move
  // by as much, and its collective starts a launch after the release.
  std::vector<std::vector<CollectivePart>> parts{{CollectivePart{0, us(200), us(600)}}, {CollectivePart{0, us(700), us(750)}}};
  buckets[1].end = us(750);
  const Time end = shift_releases(buckets, parts, {us(150), us(700)}, {0.25, 0.25}, us(0), us(5));
  CHECK(buckets[0].ready == us(150));  // produced before any window: not moved
  CHECK(buckets[0].start == us(200));
  CHECK(buckets[1].ready.us() == Approx(750));
  CHECK(buckets[1].start.us() == Approx(755));
  CHECK((buckets[1].end - buckets[1].start).us() == Approx(50));  // a collective keeps its duration
  CHECK(end == buckets[1].end);
}
