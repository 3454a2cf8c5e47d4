#include "algorithms/allreduce_ring.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

int ring_steps(CollectiveOp op, int p) { return op == CollectiveOp::all_reduce ? 2 * (p - 1) : p - 1; }

// Which chunk rank r sends at step k: (r - k) mod P. In an all-reduce the all-gather steps
// continue the same rotation, starting with the chunk rank r finished reducing, (r + 1) mod P.
// An all-gather alone starts there too (step k sends chunk (r + 1 - k) mod P), so a
// reduce-scatter's output is an all-gather's input (Herring runs one after the other; the data-
// level test caught the all-gather starting from chunk r, where the rank holds a partial sum).
int first_step(CollectiveOp op) { return op == CollectiveOp::all_gather ? -1 : 0; }
std::size_t chunk_at(int r, int k, int p) { return static_cast<std::size_t>(((r - k) % p + p) % p); }

// The buffer is cut into channels first (channel c owns the c-th part of split_even(S, C)), then
// each channel's part into P chunks.
struct Rings {
  std::vector<std::vector<VertexId>> order;  // per channel
  std::vector<std::vector<Bytes>> chunks;    // per channel, P chunks
  std::vector<std::vector<Bytes>> offsets;   // per channel, where each chunk starts in the buffer
};

Rings make_rings(const Request& req)
{
  Rings r;
  const std::vector<Bytes> per_channel = split_even(req.bytes, static_cast<std::size_t>(req.channels));
  const std::vector<Bytes> channel_at = offsets_of(per_channel);
  for (int c = 0; c < req.channels; ++c) {
    r.order.push_back(channel_ring(req, c, req.channels));
    r.chunks.push_back(split_even(per_channel[static_cast<std::size_t>(c)], req.ranks.size()));
    r.offsets.push_back(offsets_of(r.chunks.back(), channel_at[static_cast<std::size_t>(c)]));
  }
  return r;
}

}  // namespace

std::vector<VertexId> channel_ring(const Request& req, int channel, int channels)
{
  if (req.channel_orders && channels == req.channels) return (*req.channel_orders)[static_cast<std::size_t>(channel)];
  std::vector<VertexId> out;
  out.reserve(req.ranks.size());
  for (const std::vector<VertexId>& node : ranks_by_node(req)) {
    const std::size_t g = node.size();
    const std::size_t rot = static_cast<std::size_t>(channel) * g / static_cast<std::size_t>(channels);
    for (std::size_t i = 0; i < g; ++i) out.push_back(node[(i + rot) % g]);
  }
  return out;
}

bool RingAllReduce::supports(CollectiveOp op) const
{
  return op == CollectiveOp::all_reduce || op == CollectiveOp::reduce_scatter || op == CollectiveOp::all_gather;
}

// Step k of every channel runs together; a rank's step-k send waits for what its predecessor
// sent it at step k-1 and for its own previous send (StepBuilder's dependency rule).
StepSchedule RingAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  StepBuilder b(req);
  if (p == 1) return b.build();
  const Rings rings = make_rings(req);
  b.reserve(static_cast<std::size_t>(ring_steps(req.op, p)) * static_cast<std::size_t>(p) *
            static_cast<std::size_t>(req.channels));
  for (int k = 0; k < ring_steps(req.op, p); ++k) {
    for (int c = 0; c < req.channels; ++c) {
      const auto& ring = rings.order[static_cast<std::size_t>(c)];
      for (int r = 0; r < p; ++r) {
        const std::size_t chunk = chunk_at(r, k + first_step(req.op), p);
        b.send(ring[static_cast<std::size_t>(r)], ring[static_cast<std::size_t>((r + 1) % p)],
               rings.chunks[static_cast<std::size_t>(c)][chunk], rings.offsets[static_cast<std::size_t>(c)][chunk]);
      }
    }
    b.next_step();
  }
  return b.build();
}

CoarseSchedule RingAllReduce::phases(const Request& req) const
{
  check_request(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  if (p == 1) return c;
  const Rings rings = make_rings(req);
  const int nsteps = ring_steps(req.op, p);
  PhaseBuilder phase(req, std::string(to_string(req.op)), nsteps);
  const int rotations = (nsteps + p - 1) / p;
  for (int ch = 0; ch < req.channels; ++ch) {
    const auto& ring = rings.order[static_cast<std::size_t>(ch)];
    const auto& chunks = rings.chunks[static_cast<std::size_t>(ch)];
    std::uint64_t channel_bytes = 0;
    for (const Bytes& b : chunks) channel_bytes += b.n;
    for (int r = 0; r < p; ++r) {
      // The chunks of steps 0..nsteps-1 rotate through all P chunks: count whole rotations and
      // take out the few steps past nsteps (O(1) per rank; a plain sum is O(P^2) at 16k GPUs).
      std::uint64_t sent = channel_bytes * static_cast<std::uint64_t>(rotations);
      for (int k = nsteps; k < rotations * p; ++k) sent -= chunks[chunk_at(r, k + first_step(req.op), p)].n;
      phase.send(ring[static_cast<std::size_t>(r)], ring[static_cast<std::size_t>((r + 1) % p)], Bytes{sent});
    }
  }
  c.phases.push_back(phase.build());
  return c;
}

// Per channel, the rank at ring position i ends a reduce-scatter with chunk i + 1 and starts an
// all-gather with it (the rotation of chunk_at), not NCCL's chunk r.
std::vector<ByteRange> RingAllReduce::shard(const Request& req, std::size_t rank) const
{
  check_request(req, *this);
  const std::size_t p = req.ranks.size();
  const Rings rings = make_rings(req);
  std::vector<ByteRange> out;
  for (std::size_t c = 0; c < rings.order.size(); ++c) {
    const auto& ring = rings.order[c];
    const auto pos = static_cast<std::size_t>(std::find(ring.begin(), ring.end(), req.ranks[rank]) - ring.begin());
    const std::size_t chunk = (pos + 1) % p;
    out.push_back({rings.offsets[c][chunk], rings.chunks[c][chunk]});
  }
  return out;
}

HopCount RingAllReduce::latency_hops(const Request& req) const
{
  check_request(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  const int n = static_cast<int>(ranks_by_node(req).size());
  const int k = req.op == CollectiveOp::all_reduce ? 2 : 1;
  // The chunk that finishes last passes k (p - 1) consecutive edges of the ring, all of its p
  // edges but one per pass; where the one it skips lies inside a node (any node of two or more
  // ranks has such an edge), it crosses every one of the n node boundaries on each pass: k n
  // network hops, not k (n - 1). NCCL's tuning.cc counts 2 nNodes for an all-reduce up to 2.22
  // (2 (nNodes - 1) from v2.23.4-1, its estimate: nccl_estimated_hops), and so does aws-ofi-nccl's
  // own model of EFA (src/tuner/nccl_ofi_model.c, 2023-12 to 2025-03: num_internode_steps =
  // 2 * num_nodes). At most every edge when each node holds one rank.
  const int inter = n > 1 ? std::min(k * n, k * (p - 1)) : 0;
  return HopCount{k * (p - 1) - inter, inter};
}

}  // namespace ddpsim::algo
