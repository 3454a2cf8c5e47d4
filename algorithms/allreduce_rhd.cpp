#include "algorithms/allreduce_rhd.hpp"

#include <functional>

#include "algorithms/common.hpp"
#include "core/error.hpp"

namespace ddpsim::algo {
namespace {

int floor_pow2(int p)
{
  int q = 1;
  while (q * 2 <= p) q *= 2;
  return q;
}

// One exchange: (src rank, dst rank, bytes); a step is a list of exchanges that run together.
struct Send {
  int src, dst;
  Bytes bytes;
};
using Plan = std::vector<std::vector<Send>>;

Plan plan(const Request& req)
{
  const int p = static_cast<int>(req.ranks.size());
  const int q = floor_pow2(p);
  const int extra = p - q;  // ranks 0..extra-1 fold into rank r + q
  Plan out;
  if (p == 1) return out;
  const bool rs = req.op != CollectiveOp::all_gather;
  const bool ag = req.op != CollectiveOp::reduce_scatter;
  if (extra > 0) {
    std::vector<Send> fold;
    for (int r = 0; r < extra; ++r) fold.push_back({r, r + q, req.bytes});
    out.push_back(fold);
  }
  // The q active ranks are extra..p-1; active index a = rank - extra.
  int log2q = 0;
  while ((1 << log2q) < q) ++log2q;
  auto exchange_step = [&](int i) {
    std::vector<Send> step;
    // Bytes exchanged at distance 2^i: S / 2^(i+1) (rounded per rank to whole bytes).
    const std::vector<Bytes> parts = split_even(req.bytes, std::size_t{1} << (i + 1));
    for (int a = 0; a < q; ++a) step.push_back({a + extra, (a ^ (1 << i)) + extra, parts.back()});
    return step;
  };
  if (rs)
    for (int i = 0; i < log2q; ++i) out.push_back(exchange_step(i));
  if (ag)
    for (int i = log2q - 1; i >= 0; --i) out.push_back(exchange_step(i));
  if (extra > 0 && req.op == CollectiveOp::all_reduce) {
    std::vector<Send> unfold;
    for (int r = 0; r < extra; ++r) unfold.push_back({r + q, r, req.bytes});
    out.push_back(unfold);
  }
  return out;
}

// The halves alone have no fold step for the extra ranks: a user asking for them gets told.
void check_pow2(CollectiveOp op, int p)
{
  if (op != CollectiveOp::all_reduce && floor_pow2(p) != p)
    throw UserError("rhd implements " + std::string(to_string(op)) + " only for a power-of-two rank count, not " +
                    std::to_string(p));
}

}  // namespace

bool RecursiveHalvingDoubling::supports(CollectiveOp op) const
{
  return op == CollectiveOp::all_reduce || op == CollectiveOp::reduce_scatter || op == CollectiveOp::all_gather;
}

StepSchedule RecursiveHalvingDoubling::steps(const Request& req) const
{
  check_request(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  check_pow2(req.op, p);
  StepBuilder b(req);
  for (const auto& step : plan(req)) {
    for (const Send& s : step) b.send(req.ranks[static_cast<std::size_t>(s.src)], req.ranks[static_cast<std::size_t>(s.dst)], s.bytes);
    b.next_step();
  }
  return b.build();
}

// One phase per step: the bytes halve from step to step, so a single phase would mis-time them.
CoarseSchedule RecursiveHalvingDoubling::phases(const Request& req) const
{
  check_request(req, *this);
  const int p = static_cast<int>(req.ranks.size());
  check_pow2(req.op, p);
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  int i = 0;
  for (const auto& step : plan(req)) {
    PhaseBuilder ph(req, "step " + std::to_string(i++), 1);
    for (const Send& s : step) ph.send(req.ranks[static_cast<std::size_t>(s.src)], req.ranks[static_cast<std::size_t>(s.dst)], s.bytes);
    c.phases.push_back(ph.build());
  }
  return c;
}

}  // namespace ddpsim::algo
