// NCCL's own estimate of a collective's latency, the one `auto` chooses by (algorithms/nccl_tuning.hpp
// nccl_estimated_latency, nccl_estimated_hops), by NCCL release: the ring's net overhead from
// 2.18.1 and its network step count from 2.23.4 (src/graph/tuning.cc at the tags).
#include <catch2/catch.hpp>

#include "algorithms/nccl_tuning.hpp"
#include "support.hpp"

using namespace ddpsim;
using namespace ddpsim::algo;
using ddpsim::test::instance;

namespace {

Version v(const char* s) { return test::version(s); }

// NCCL's estimate for a ring all-reduce of 16 ranks on `nodes` x 8 GPUs, in us.
double ring_estimate_us(InstanceSpec inst, const char* nccl, CpuVendor cpu, Protocol p, int nodes)
{
  inst.nccl = v(nccl);
  inst.cpu_vendor = cpu;
  inst.nccl_net_latency = Time{0};  // hwLat alone: the differences below are NCCL's own terms
  const Topology topo(inst, nodes, 8);
  const int ranks = nodes * 8;
  const HopCount hops = nccl_estimated_hops(NcclFamily::ring, CollectiveOp::all_reduce, ranks, nodes, HopCount{}, inst.nccl);
  return nccl_estimated_latency(NcclFamily::ring, p, hops, topo).us();
}

}  // namespace

TEST_CASE("NCCL's estimate: a ring step across nodes costs at least the net overhead from NCCL 2.18.1")
{
  const InstanceSpec p5 = instance("p5.48xlarge");
  // 2 nodes x 8 ranks: 30 steps, 4 of them network steps (2 x nodes before 2.23.4), 26 NVLink steps.
  // LL: NVLink hwLat 0.6 us; from 2.18.1 at least 1 us (Intel) or 2 us (AMD) per step.
  const double before = ring_estimate_us(p5, "2.17.1", CpuVendor::amd, Protocol::ll, 2);
  const double intel = ring_estimate_us(p5, "2.18.1", CpuVendor::intel, Protocol::ll, 2);
  const double amd = ring_estimate_us(p5, "2.18.1", CpuVendor::amd, Protocol::ll, 2);
  // (and 2.18.1 raised the ring LL baseLat from 3.6 to 6.6: below)
  CHECK(intel - before == Approx(26 * (1.0 - 0.6) + (6.6 - 3.6)));
  CHECK(amd - before == Approx(26 * (2.0 - 0.6) + (6.6 - 3.6)));
  // Simple: x 3, so 3 us (Intel: below NVLink's 3.4, no change) or 6 us (AMD).
  CHECK(ring_estimate_us(p5, "2.18.1", CpuVendor::intel, Protocol::simple, 2) ==
        Approx(ring_estimate_us(p5, "2.17.1", CpuVendor::intel, Protocol::simple, 2)));
  CHECK(ring_estimate_us(p5, "2.18.1", CpuVendor::amd, Protocol::simple, 2) -
            ring_estimate_us(p5, "2.17.1", CpuVendor::amd, Protocol::simple, 2) ==
        Approx(26 * (6.0 - 3.4)));
  // Inside one node there is no network: NVLink's own latency (and the baseLat of each release).
  CHECK(ring_estimate_us(p5, "2.21.5", CpuVendor::amd, Protocol::ll, 1) ==
        Approx(ring_estimate_us(p5, "2.17.1", CpuVendor::amd, Protocol::ll, 1) + (6.6 - 3.6)));
}

TEST_CASE("NCCL's estimate: baseLat as each release's tuning.cc has it")
{
  // 1 node x 8 ranks, no network: the estimate's fixed part is baseLat (14 NVLink hops besides).
  InstanceSpec p4de = instance("p4de.24xlarge");
  const auto base = [&](const char* nccl, NcclFamily f, Protocol p) {
    p4de.nccl = v(nccl);
    const Topology topo(p4de, 1, 8);
    return nccl_estimated_latency(f, p, HopCount{0, 0}, topo).us();
  };
  // A tree's Simple entry is 0 until v2.23.4-1, 8.4 from it.
  CHECK(base("2.20.3", NcclFamily::tree, Protocol::simple) == Approx(0.0));
  CHECK(base("2.23.4", NcclFamily::tree, Protocol::simple) == Approx(8.4));
  // LL and LL128: 4.4 (tree) and 3.6 / 10.0 (ring, LL128 10.0 from v2.7.3-1) before v2.18.1-1, then 6.8 / 14.0 and 6.6 / 14.0.
  CHECK(base("2.6.4", NcclFamily::ring, Protocol::ll128) == Approx(3.6));
  CHECK(base("2.7.8", NcclFamily::ring, Protocol::ll128) == Approx(10.0));
  CHECK(base("2.17.1", NcclFamily::ring, Protocol::ll) == Approx(3.6));
  CHECK(base("2.17.1", NcclFamily::tree, Protocol::ll128) == Approx(4.4));
  CHECK(base("2.18.1", NcclFamily::ring, Protocol::ll) == Approx(6.6));
  CHECK(base("2.18.1", NcclFamily::tree, Protocol::ll128) == Approx(14.0));
  CHECK(base("2.21.5", NcclFamily::ring, Protocol::simple) == Approx(8.4));
}

TEST_CASE("NCCL's estimate: a ring all-reduce counts 2 x nodes network steps before NCCL 2.23.4, 2 x (nodes - 1) from it")
{
  for (int nodes : {2, 4, 8}) {
    const int ranks = nodes * 8;
    const HopCount old_hops = nccl_estimated_hops(NcclFamily::ring, CollectiveOp::all_reduce, ranks, nodes, HopCount{}, v("2.22.3"));
    const HopCount new_hops = nccl_estimated_hops(NcclFamily::ring, CollectiveOp::all_reduce, ranks, nodes, HopCount{}, v("2.23.4"));
    CHECK(old_hops.inter == 2 * nodes);
    CHECK(new_hops.inter == 2 * (nodes - 1));
    CHECK(old_hops.intra + old_hops.inter == 2 * (ranks - 1));
    CHECK(new_hops.intra + new_hops.inter == 2 * (ranks - 1));
  }
  // Trees keep the schedule's hops whatever the release.
  const HopCount tree{14, 2};
  CHECK(nccl_estimated_hops(NcclFamily::tree, CollectiveOp::all_reduce, 16, 2, tree, v("2.23.4")).inter == 2);
}
