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

// One exchange: (src rank, dst rank, the byte range sent); a step is a list of exchanges that run
// together.
struct Send {
  int src, dst;
  ByteRange data;
};
using Plan = std::vector<std::vector<Send>>;

// The range active rank a holds at each level of the halving: level 0 is the whole buffer; at
// reduce-scatter step i it keeps the lower part (ceil) of its level-i range when bit i of a is 0,
// the upper part (floor) otherwise, and its partner a ^ 2^i keeps the other. With S not a
// multiple of 2^i the two parts differ by a byte, so the partners send different amounts.
std::vector<ByteRange> levels(Bytes total, int a, int log2q)
{
  std::vector<ByteRange> out{{Bytes{0}, total}};
  for (int i = 0; i < log2q; ++i) {
    const ByteRange r = out.back();
    const Bytes lower{r.bytes.n - r.bytes.n / 2};
    out.push_back((a >> i) & 1 ? ByteRange{r.offset + lower, Bytes{r.bytes.n / 2}} : ByteRange{r.offset, lower});
  }
  return out;
}

int log2_of(int q)
{
  int l = 0;
  while ((1 << l) < q) ++l;
  return l;
}

Plan plan(const Request& req)
{
  const int p = static_cast<int>(req.ranks.size());
  const int q = floor_pow2(p);
  const int extra = p - q;  // ranks 0..extra-1 fold into rank r + q
  Plan out;
  if (p == 1) return out;
  const bool rs = req.op != CollectiveOp::all_gather;
  const bool ag = req.op != CollectiveOp::reduce_scatter;
  const ByteRange whole{Bytes{0}, req.bytes};
  if (extra > 0) {
    std::vector<Send> fold;
    for (int r = 0; r < extra; ++r) fold.push_back({r, r + q, whole});
    out.push_back(fold);
  }
  // The q active ranks are extra..p-1; active index a = rank - extra.
  const int log2q = log2_of(q);
  std::vector<std::vector<ByteRange>> level;
  for (int a = 0; a < q; ++a) level.push_back(levels(req.bytes, a, log2q));
  // Reduce-scatter step i: a sends its partner the part of its level-i range the partner keeps
  // (S / 2^(i+1) bytes, give or take one). All-gather step i: a sends its level-(i+1) range.
  auto exchange_step = [&](int i, bool gather) {
    std::vector<Send> step;
    for (int a = 0; a < q; ++a) {
      const int b = a ^ (1 << i);
      const ByteRange data = level[static_cast<std::size_t>(gather ? a : b)][static_cast<std::size_t>(i + 1)];
      step.push_back({a + extra, b + extra, data});
    }
    return step;
  };
  if (rs)
    for (int i = 0; i < log2q; ++i) out.push_back(exchange_step(i, false));
  if (ag)
    for (int i = log2q - 1; i >= 0; --i) out.push_back(exchange_step(i, true));
  if (extra > 0 && req.op == CollectiveOp::all_reduce) {
    std::vector<Send> unfold;
    for (int r = 0; r < extra; ++r) unfold.push_back({r + q, r, whole});
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
    for (const Send& s : step)
      b.send(req.ranks[static_cast<std::size_t>(s.src)], req.ranks[static_cast<std::size_t>(s.dst)], s.data.bytes, s.data.offset);
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
    for (const Send& s : step) ph.send(req.ranks[static_cast<std::size_t>(s.src)], req.ranks[static_cast<std::size_t>(s.dst)], s.data.bytes);
    c.phases.push_back(ph.build());
  }
  return c;
}

// Active rank a ends the halving with its last-level range (a bit-reversed order of a, not NCCL's
// rank order); the ranks folded into others own nothing.
std::vector<ByteRange> RecursiveHalvingDoubling::shard(const Request& req, std::size_t rank) const
{
  const int p = static_cast<int>(req.ranks.size());
  const int q = floor_pow2(p), a = static_cast<int>(rank) - (p - q);
  if (a < 0) return {};
  return {levels(req.bytes, a, log2_of(q)).back()};
}

}  // namespace ddpsim::algo
