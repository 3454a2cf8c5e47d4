#include "algorithms/allreduce_rd.hpp"

#include "algorithms/common.hpp"

namespace ddpsim::algo {
namespace {

// The steps, as (src rank, dst rank) pairs that each carry the whole buffer.
std::vector<std::vector<std::pair<int, int>>> plan(int p)
{
  int q = 1;
  while (q * 2 <= p) q *= 2;
  const int extra = p - q;  // ranks 0..extra-1 fold into rank r + q
  std::vector<std::vector<std::pair<int, int>>> out;
  if (p == 1) return out;
  if (extra > 0) {
    out.emplace_back();
    for (int r = 0; r < extra; ++r) out.back().emplace_back(r, r + q);
  }
  for (int bit = 1; bit < q; bit *= 2) {
    out.emplace_back();
    for (int a = 0; a < q; ++a) out.back().emplace_back(a + extra, (a ^ bit) + extra);
  }
  if (extra > 0) {
    out.emplace_back();
    for (int r = 0; r < extra; ++r) out.back().emplace_back(r + q, r);
  }
  return out;
}

// One exchange on `b` (a PhaseBuilder or a StepBuilder): a send, or a copy through the memory
// of a device both ranks share.
template <class Builder, class... Offset>
void exchange(Builder& b, const Request& req, VertexId src, VertexId dst, Offset... offset)
{
  if (src != dst) b.send(src, dst, req.bytes, offset...);
  else b.local(TaskKind::copy, src, req.bytes, offset..., hop_overhead(req, src, dst));
}

}  // namespace

StepSchedule RecursiveDoubling::steps(const Request& req) const
{
  check_request(req, *this);
  StepBuilder b(req);
  for (const auto& step : plan(static_cast<int>(req.ranks.size()))) {
    for (const auto& [s, d] : step)
      exchange(b, req, req.ranks[static_cast<std::size_t>(s)], req.ranks[static_cast<std::size_t>(d)], Bytes{0});
    b.next_step();
  }
  return b.build();
}

CoarseSchedule RecursiveDoubling::phases(const Request& req) const
{
  check_request(req, *this);
  CoarseSchedule c;
  c.fixed_latency = req.latency.base;
  int i = 0;
  for (const auto& step : plan(static_cast<int>(req.ranks.size()))) {
    PhaseBuilder ph(req, "step " + std::to_string(i++), 1);
    for (const auto& [s, d] : step) exchange(ph, req, req.ranks[static_cast<std::size_t>(s)], req.ranks[static_cast<std::size_t>(d)]);
    c.phases.push_back(ph.build());
  }
  return c;
}

}  // namespace ddpsim::algo
