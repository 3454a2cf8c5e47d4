#include "algorithms/herring.hpp"

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/host_exchange.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

void build(const Request& req, StagedSchedule& s)
{
  DDPSIM_CHECK(req.op == CollectiveOp::all_reduce, "herring implements all_reduce only");
  const std::size_t g = s.local().front().size();
  const int n = s.nodes();
  s.add_local_ring(CollectiveOp::reduce_scatter);
  if (n > 1) {
    // After the ring reduce-scatter local rank j holds chunk (j+1) mod g (allreduce_ring.cpp).
    const std::vector<Bytes> chunk = split_even(req.bytes, g);
    auto shard = [&](std::size_t j) { return g == 1 ? req.bytes : chunk[(j + 1) % g]; };
    std::vector<Bytes> stripe_bytes(static_cast<std::size_t>(s.stripes()));
    for (std::size_t j = 0; j < g; ++j) stripe_bytes[static_cast<std::size_t>(s.stripe_of(j))] += shard(j);
    // Balanced parts: the stripe's host buffer cut into N parts, part i for the server on node i.
    std::vector<std::vector<Bytes>> part;
    for (Bytes b : stripe_bytes) part.push_back(split_even(b, static_cast<std::size_t>(n)));

    std::vector<Lane> to_host, to_gpu, sum;
    for (int a = 0; a < n; ++a)
      for (std::size_t j = 0; j < g; ++j) {
        const VertexId gpu = s.local()[static_cast<std::size_t>(a)][j], cpu = s.server(a, s.stripe_of(j));
        to_host.push_back({{TaskKind::send, gpu, cpu, shard(j), s.step_overhead(gpu, cpu)}});
        to_gpu.push_back({{TaskKind::send, cpu, gpu, shard(j), s.step_overhead(cpu, gpu)}});
      }
    for (int i = 0; i < n; ++i)
      for (int st = 0; st < s.stripes(); ++st) {
        const VertexId cpu = s.server(i, st);
        const Bytes reads{part[static_cast<std::size_t>(st)][static_cast<std::size_t>(i)].n * static_cast<std::uint64_t>(n)};
        sum.push_back({{TaskKind::reduce, cpu, cpu, reads, Time{0}}});
      }
    s.add_stage("gpu to host", to_host);
    s.add_exchange("shards to servers", [&](int, int b, int st) { return part[static_cast<std::size_t>(st)][static_cast<std::size_t>(b)]; });
    s.add_stage("server sum", sum);
    s.add_exchange("sums to workers", [&](int a, int, int st) { return part[static_cast<std::size_t>(st)][static_cast<std::size_t>(a)]; });
    s.add_stage("host to gpu", to_gpu);
  }
  s.add_local_ring(CollectiveOp::all_gather);
}

}  // namespace

StepSchedule HerringAllReduce::steps(const Request& req) const { return staged_steps(req, build); }

CoarseSchedule HerringAllReduce::phases(const Request& req) const { return staged_phases(req, build); }

}  // namespace ddpsim::algo
