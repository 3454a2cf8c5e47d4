// NCCL's single-node NVLS all-reduce as a three-stage pipeline of its chunks
// (sim/network/nvls_pipeline.hpp; round 4 session 17, issue 18).
#include <catch2/catch.hpp>

#include "support.hpp"

#include "sim/network/collective_model.hpp"
#include "sim/network/nvls_pipeline.hpp"
#include "topology/transport.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {
InstanceSpec p5(Version nccl = kDefaultNccl, std::uint64_t buffsize = 4 * MiB)
{
  InstanceSpec inst = test::instance("p5.48xlarge");
  TransportSpec t;
  t.software.nccl = nccl;
  t.software.nccl_buffsize = Bytes{buffsize};
  apply_transport(inst, t);
  return inst;
}

PricedCollective nvls(const Topology& topo, std::uint64_t bytes)
{
  CollectiveOptions o;
  o.algorithm = "nvls";
  return CollectiveModel(topo, o).price(algo::CollectiveOp::all_reduce, Bytes{bytes});
}
}  // namespace

TEST_CASE("NVLS in one node: NCCL's chunk rules give the loop's iterations")
{
  const Topology one(p5(), 1, 8);
  // 16 channels x 8 heads run concurrently; the chunk is one step of NCCL_BUFFSIZE (512 KiB by
  // default) capped at NCCL_NVLS_CHUNKSIZE (128 KiB), and shrinks while few rounds remain.
  CHECK(nvls_iterations(Bytes{0}, one) == 0);
  CHECK(nvls_iterations(Bytes{2 * MiB}, one) == 1);        // 16 KiB chunks: 2 MiB per iteration
  CHECK(nvls_iterations(Bytes{8 * MiB}, one) == 2);        // 32 KiB chunks
  CHECK(nvls_iterations(Bytes{16 * GiB}, one) == 1024);    // 128 KiB chunks: 16 MiB per iteration
  CHECK(nvls_iterations(Bytes{768 * MiB}, one) == 96);     // under 64 rounds of 128 KiB: 64 KiB
  // NCCL 2.17 halved to 64 KiB only under 32 rounds: 768 MiB keeps 128 KiB chunks there.
  CHECK(nvls_iterations(Bytes{768 * MiB}, Topology(p5(Version{2, 17, 1}), 1, 8)) == 48);
  // A smaller NCCL_BUFFSIZE makes a smaller step, and the step caps the chunk.
  CHECK(nvls_iterations(Bytes{16 * GiB}, Topology(p5(kDefaultNccl, 512 * KiB), 1, 8)) == 2048);
  // Fewer GPUs, fewer heads: a 4-GPU node moves half the bytes per iteration.
  CHECK(nvls_iterations(Bytes{16 * GiB}, Topology(p5(), 1, 4)) == 2048);
}

TEST_CASE("NVLS in one node pays two first iterations of fill, which NCCL's choice does not see")
{
  const Topology one(p5(), 1, 8);
  const PricedCollective big = nvls(one, 16 * GiB), mid = nvls(one, 8 * MiB);
  REQUIRE(big.algorithm);
  CHECK(big.algorithm->name() == "nvls");
  // Per byte, 8 MiB (2 iterations) takes (2 + 2) / 2 = 2x the time of the steady state, 16 GiB
  // (1024 iterations) 1026 / 1024 of it.
  const double per_byte_big = big.terms.bandwidth_us / (16.0 * GiB), per_byte_mid = mid.terms.bandwidth_us / (8.0 * MiB);
  CHECK(per_byte_mid / per_byte_big == Approx(2.0 * 1024 / 1026).epsilon(1e-6));
  // NCCL's own estimate, which it chooses by, has no fill: its bandwidth part scales with bytes.
  const double est_big = big.nccl_estimate_us - big.terms.latency_us, est_mid = mid.nccl_estimate_us - mid.terms.latency_us;
  CHECK(est_mid / est_big == Approx(8.0 * MiB / (16.0 * GiB)).epsilon(1e-6));
  // Whole iterations first: the price never falls as the bytes grow, across every chunk change.
  double last = 0;
  for (std::uint64_t b = 64 * KiB; b <= 2 * GiB; b += b / 4) {
    const double t = nvls(one, b).terms.bandwidth_us;
    INFO("bytes=" << b);
    CHECK(t >= last);
    last = t;
  }
  // Across nodes NVLS runs another kernel (NVLS+Tree's groups and the network): no fill priced.
  const Topology two(p5(), 2, 8);
  const PricedCollective b2 = nvls(two, 16 * GiB), m2 = nvls(two, 8 * MiB);
  CHECK(m2.terms.bandwidth_us / b2.terms.bandwidth_us == Approx(8.0 * MiB / (16.0 * GiB)).epsilon(1e-6));
}
