#include "algorithms/herring.hpp"

#include "algorithms/allreduce_ring.hpp"
#include "algorithms/common.hpp"
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
    // After the ring reduce-scatter local rank j holds its ring shard (RingAllReduce::shard: chunk
    // (j+1) mod g of each channel); with one GPU per node, the whole buffer.
    Request local = req;
    local.op = CollectiveOp::reduce_scatter;
    local.ranks = s.local().front();
    const RingAllReduce ring;
    std::vector<std::vector<ByteRange>> held(g);
    std::vector<Bytes> shard(g);
    for (std::size_t j = 0; j < g; ++j) {
      held[j] = ring.shard(local, j);
      for (const ByteRange& r : held[j]) shard[j] += r.bytes;
    }
    // A stripe's host buffer: its GPUs' shards back to back.
    std::vector<Bytes> stripe_bytes(static_cast<std::size_t>(s.stripes()));
    std::vector<std::vector<ByteRange>> stripe_data(stripe_bytes.size());
    for (std::size_t j = 0; j < g; ++j) {
      const auto st = static_cast<std::size_t>(s.stripe_of(j));
      stripe_bytes[st] += shard[j];
      stripe_data[st].insert(stripe_data[st].end(), held[j].begin(), held[j].end());
    }
    // Balanced parts: the stripe's host buffer cut into N parts, part i for the server on node i.
    std::vector<std::vector<Bytes>> part;
    std::vector<std::vector<std::vector<ByteRange>>> part_data;
    for (std::size_t st = 0; st < stripe_bytes.size(); ++st) {
      part.push_back(split_even(stripe_bytes[st], static_cast<std::size_t>(n)));
      part_data.push_back(cut_ranges(stripe_data[st], part.back()));
    }

    std::vector<Lane> to_host, to_gpu, sum;
    for (int a = 0; a < n; ++a)
      for (std::size_t j = 0; j < g; ++j) {
        const VertexId gpu = s.local()[static_cast<std::size_t>(a)][j], cpu = s.server(a, s.stripe_of(j));
        to_host.push_back({{TaskKind::send, gpu, cpu, shard[j], s.step_overhead(gpu, cpu), held[j]}});
        to_gpu.push_back({{TaskKind::send, cpu, gpu, shard[j], s.step_overhead(cpu, gpu), held[j]}});
      }
    for (int i = 0; i < n; ++i)
      for (int st = 0; st < s.stripes(); ++st) {
        const VertexId cpu = s.server(i, st);
        const Bytes reads{part[static_cast<std::size_t>(st)][static_cast<std::size_t>(i)].n * static_cast<std::uint64_t>(n)};
        sum.push_back({{TaskKind::reduce, cpu, cpu, reads, Time{0}, {}}});
      }
    auto at = [](const auto& table, int st, int i) { return table[static_cast<std::size_t>(st)][static_cast<std::size_t>(i)]; };
    s.add_stage("gpu to host", to_host);
    s.add_exchange(
        "shards to servers", [&](int, int b, int st) { return at(part, st, b); },
        [&](int, int b, int st) { return at(part_data, st, b); });
    s.add_stage("server sum", sum, /*per_round=*/false, /*on_host=*/true);
    s.add_exchange(
        "sums to workers", [&](int a, int, int st) { return at(part, st, a); },
        [&](int a, int, int st) { return at(part_data, st, a); });
    s.add_stage("host to gpu", to_gpu);
  }
  s.add_local_ring(CollectiveOp::all_gather);
}

}  // namespace

StepSchedule HerringAllReduce::steps(const Request& req) const { return staged_steps(req, build); }

CoarseSchedule HerringAllReduce::phases(const Request& req) const { return staged_phases(req, build); }

}  // namespace ddpsim::algo
