#include "algorithms/allreduce_ring.hpp"

#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

int ring_steps(CollectiveOp op, int p) { return op == CollectiveOp::all_reduce ? 2 * (p - 1) : p - 1; }

// Which chunk rank r sends at step k: (r - k) mod P. In an all-reduce the all-gather steps
// continue the same rotation, starting with the chunk rank r finished reducing, (r + 1) mod P;
// an all-gather alone starts with the rank's own chunk r.
std::size_t chunk_at(int r, int k, int p) { return static_cast<std::size_t>(((r - k) % p + p) % p); }

Time step_overhead(const Request& req, VertexId a, VertexId b)
{
  const bool inter = req.topo->device(a).node != req.topo->device(b).node;
  return inter ? req.latency.inter_step : req.latency.intra_step;
}

void check(const Request& req, const RingAllReduce& algo)
{
  DDPSIM_CHECK(req.topo != nullptr && !req.ranks.empty(), "empty collective request");
  DDPSIM_CHECK(algo.supports(req.op), "ring does not implement " + std::string(to_string(req.op)));
}

}  // namespace

std::vector<Bytes> split_even(Bytes total, std::size_t parts)
{
  DDPSIM_CHECK(parts > 0, "split into zero parts");
  std::vector<Bytes> out(parts, Bytes{total.n / parts});
  for (std::size_t i = 0; i < total.n % parts; ++i) out[i].n += 1;
  return out;
}

bool RingAllReduce::supports(CollectiveOp op) const
{
  return op == CollectiveOp::all_reduce || op == CollectiveOp::reduce_scatter || op == CollectiveOp::all_gather;
}

StepSchedule RingAllReduce::steps(const Request& req) const
{
  check(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  StepSchedule s;
  if (p == 1) return s;
  const std::vector<Bytes> chunks = split_even(req.bytes, static_cast<std::size_t>(p));
  const int nsteps = ring_steps(req.op, p);
  s.tasks.reserve(static_cast<std::size_t>(p) * static_cast<std::size_t>(nsteps));
  // Task (k, r) is at index k*P + r. It waits for the chunk rank r-1 sent at step k-1, and for
  // rank r's own previous send (one send at a time per rank and link).
  for (int k = 0; k < nsteps; ++k) {
    for (int r = 0; r < p; ++r) {
      Task t;
      t.src = req.ranks[static_cast<std::size_t>(r)];
      t.dst = req.ranks[static_cast<std::size_t>((r + 1) % p)];
      t.bytes = chunks[chunk_at(r, k, p)];
      t.overhead = step_overhead(req, t.src, t.dst);
      if (k > 0) {
        t.deps.push_back(static_cast<std::uint32_t>((k - 1) * p + (r - 1 + p) % p));
        t.deps.push_back(static_cast<std::uint32_t>((k - 1) * p + r));
      }
      s.tasks.push_back(std::move(t));
    }
  }
  return s;
}

CoarseSchedule RingAllReduce::phases(const Request& req) const
{
  check(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  if (p == 1) return c;
  const std::vector<Bytes> chunks = split_even(req.bytes, static_cast<std::size_t>(p));
  const int nsteps = ring_steps(req.op, p);
  Phase phase{std::string(to_string(req.op)), {}, nsteps};
  phase.flows.reserve(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    Flow f;
    f.src = req.ranks[static_cast<std::size_t>(r)];
    f.dst = req.ranks[static_cast<std::size_t>((r + 1) % p)];
    // The chunks of steps 0..nsteps-1 rotate through all P chunks: count whole rotations and
    // take out the few steps past nsteps (O(1) per rank; a plain sum is O(P^2) at 16k GPUs).
    const int rotations = (nsteps + p - 1) / p;
    std::uint64_t bytes = req.bytes.n * static_cast<std::uint64_t>(rotations);
    for (int k = nsteps; k < rotations * p; ++k) bytes -= chunks[chunk_at(r, k, p)].n;
    f.bytes = Bytes{bytes};
    f.step_overhead = step_overhead(req, f.src, f.dst);
    phase.flows.push_back(f);
  }
  c.phases.push_back(std::move(phase));
  return c;
}

}  // namespace ddpsim::algo
