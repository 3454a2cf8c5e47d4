// sim/step/overheads: each function against a hand computation.
#include <catch2/catch.hpp>

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
