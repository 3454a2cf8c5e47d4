#include "algorithms/allreduce_direct.hpp"

#include "algorithms/common.hpp"

namespace ddpsim::algo {
namespace {

struct Send {
  std::size_t src, dst;
  Bytes bytes;
  Bytes offset;  // of the data in the buffer
};

// Steps as lists of sends (rank indices). Rank 0 is the broadcast root.
std::vector<std::vector<Send>> plan(const Request& req)
{
  const std::size_t p = req.ranks.size();
  std::vector<std::vector<Send>> out;
  if (p == 1) return out;
  if (req.op == CollectiveOp::broadcast) {
    for (std::size_t k = 1; k < p; ++k) out.push_back({{0, k, req.bytes, Bytes{0}}});
    return out;
  }
  const std::vector<Bytes> chunk = split_even(req.bytes, p);
  const std::vector<Bytes> at = offsets_of(chunk);
  if (req.op != CollectiveOp::all_gather)
    for (std::size_t k = 1; k < p; ++k) {
      std::vector<Send> step;
      for (std::size_t r = 0; r < p; ++r) step.push_back({r, (r + k) % p, chunk[(r + k) % p], at[(r + k) % p]});
      out.push_back(step);
    }
  if (req.op != CollectiveOp::reduce_scatter)
    for (std::size_t k = 1; k < p; ++k) {
      std::vector<Send> step;
      for (std::size_t r = 0; r < p; ++r) step.push_back({r, (r + k) % p, chunk[r], at[r]});
      out.push_back(step);
    }
  return out;
}

}  // namespace

bool DirectAllReduce::supports(CollectiveOp op) const { return op != CollectiveOp::reduce; }

StepSchedule DirectAllReduce::steps(const Request& req) const
{
  check_request(req, *this);
  // Shifts run in lock step, as the phases do: on a mesh the shifts' routes differ in speed, and
  // without the barrier fast pairs would run ahead of the coarse schedule's timing.
  StepBuilder b(req, /*lock_step=*/true);
  for (const auto& step : plan(req)) {
    for (const Send& s : step) b.send(req.ranks[s.src], req.ranks[s.dst], s.bytes, s.offset);
    b.next_step();
  }
  return b.build();
}

// One phase per step: a phase with all P-1 shifts at once would have every rank send P-1
// messages over its one link, which the analytical backend would not see as sharing.
CoarseSchedule DirectAllReduce::phases(const Request& req) const
{
  check_request(req, *this);
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  std::size_t i = 0;
  for (const auto& step : plan(req)) {
    PhaseBuilder ph(req, "shift " + std::to_string(++i), 1);
    for (const Send& s : step) ph.send(req.ranks[s.src], req.ranks[s.dst], s.bytes);
    c.phases.push_back(ph.build());
  }
  return c;
}

}  // namespace ddpsim::algo
