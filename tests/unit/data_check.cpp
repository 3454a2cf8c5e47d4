#include "data_check.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "core/error.hpp"

namespace ddpsim::test {
namespace {

using algo::ByteRange;
using algo::CollectiveOp;
using Mask = std::uint64_t;  // bit r: rank r's contribution is in the sum

struct Segment {
  std::uint64_t end = 0;
  Mask mask = 0;
  std::vector<std::uint32_t> writers;  // the writes no later write was ordered after (empty: initial)
  bool summed = false;                 // the last write added contributions disjoint from those held
  std::vector<std::uint32_t> readers;  // tasks that read it since the last write
};
using Holdings = std::map<std::uint64_t, Segment>;  // start -> segment; covers [0, S) exactly

class Machine {
 public:
  Machine(const algo::Request& req, const algo::StepSchedule& s) : s_(s), size_(req.bytes.n)
  {
    held_.resize(req.topo->device_count());
    for (Holdings& h : held_) h[0] = Segment{size_, 0, {}, false, {}};
    if (!s.pipelined) ancestors();
  }

  void give(VertexId dev, ByteRange r, Mask m)
  {
    for (auto it = range(dev, r.offset.n, r.offset.n + r.bytes.n); it.first != it.second; ++it.first) it.first->second.mask |= m;
  }

  // Runs task i; returns "" or the problem.
  std::string run(std::uint32_t i)
  {
    const algo::Task& t = s_.tasks[i];
    if (t.kind != algo::TaskKind::send) return "";  // local compute on data already delivered
    struct Piece {
      std::uint64_t begin, end;
      Mask mask;
    };
    std::vector<Piece> moved;
    for (const ByteRange& r : algo::data_ranges(s_, i)) {
      const std::uint64_t b = r.offset.n, e = r.offset.n + r.bytes.n;
      if (e > size_) return where(i, t.src, b, e) + "range beyond the " + std::to_string(size_) + "-byte buffer";
      for (auto [it, last] = range(t.src, b, e); it != last; ++it) {
        Segment& seg = it->second;
        for (std::uint32_t w : seg.writers)
          if (!ordered(w, i)) return where(i, t.src, it->first, seg.end) + "reads data written by task " + std::to_string(w) + ", which it does not depend on";
        if (seg.mask == 0) return where(i, t.src, it->first, seg.end) + "sends bytes its source does not hold";
        seg.readers.push_back(i);
        moved.push_back({it->first, seg.end, seg.mask});
      }
    }
    for (const Piece& p : moved)
      for (auto [it, last] = range(t.dst, p.begin, p.end); it != last; ++it) {
        Segment& seg = it->second;
        const Mask have = seg.mask, in = p.mask;
        if (!seg.writers.empty() && seg.writers.back() == i && (in & have) == in) continue;  // the same data again in one task (copies)
        // Sums of disjoint contributions commute (a server summing pushes in arrival order): two
        // such writes need no order. Anything else written concurrently is a race.
        const bool sums = (in & have) == 0;
        bool all_before = true;
        for (std::uint32_t w : seg.writers) {
          if (ordered(w, i)) continue;
          all_before = false;
          if (!(sums && seg.summed)) return where(i, t.dst, it->first, seg.end) + "overwrites data of task " + std::to_string(w) + " unordered with it";
        }
        for (std::uint32_t r : seg.readers)
          if (!ordered(r, i)) return where(i, t.dst, it->first, seg.end) + "overwrites data task " + std::to_string(r) + " reads, unordered with it";
        if (sums) seg.mask = in | have;  // reduce: disjoint contributions
        else if ((in & have) == have) seg.mask = in;  // copy: the incoming sum contains ours
        else return where(i, t.dst, it->first, seg.end) + "would count a contribution twice or lose one (holds " + hex(have) + ", receives " + hex(in) + ")";
        if (all_before) seg.writers.clear();
        if (seg.writers.empty() || seg.writers.back() != i) seg.writers.push_back(i);
        seg.summed = sums;
        seg.readers.clear();
      }
    return "";
  }

  // A pipelined schedule: every send is a stream. Per elementary byte range, the stream s -> d
  // carries s's own data plus every stream into s except the one from d (message passing on a
  // tree: the pipelined reduce up and broadcast down). Streams that loop back, or two streams
  // bringing the same contribution, would count it twice: an error.
  std::string streams()
  {
    std::vector<std::uint64_t> cuts{0, size_};
    for (const Holdings& h : held_)
      for (const auto& [start, seg] : h) cuts.push_back(start);
    for (std::uint32_t i = 0; i < s_.tasks.size(); ++i)
      if (s_.tasks[i].kind == algo::TaskKind::send)
        for (const ByteRange& r : algo::data_ranges(s_, i)) {
          if (r.offset.n + r.bytes.n > size_) return where(i, s_.tasks[i].src, r.offset.n, r.offset.n + r.bytes.n) + "range beyond the buffer";
          cuts.push_back(r.offset.n);
          cuts.push_back(r.offset.n + r.bytes.n);
        }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c)
      if (std::string e = streams_on(cuts[c], cuts[c + 1]); !e.empty()) return e;
    return "";
  }

  // "" when `dev` holds exactly `want` over `r`.
  std::string expect(VertexId dev, ByteRange r, Mask want, const std::string& who)
  {
    for (auto [it, last] = range(dev, r.offset.n, r.offset.n + r.bytes.n); it != last; ++it)
      if (it->second.mask != want)
        return who + " (device " + std::to_string(dev) + ") ends with " + hex(it->second.mask) + " on [" + std::to_string(it->first) + ", " + std::to_string(it->second.end) + "), expected " + hex(want);
    return "";
  }

 private:
  const algo::StepSchedule& s_;
  std::uint64_t size_;
  std::vector<Holdings> held_;
  std::vector<std::vector<std::uint64_t>> anc_;  // anc_[i]: bitset of task i's transitive dependencies

  std::string streams_on(std::uint64_t b, std::uint64_t e)
  {
    struct Edge {
      std::uint32_t task;
      VertexId src, dst;
      int state = 0;  // 0 not computed, 1 in progress, 2 done
      Mask mask = 0;
    };
    std::vector<Edge> edges;
    std::map<VertexId, std::vector<std::size_t>> into;
    for (std::uint32_t i = 0; i < s_.tasks.size(); ++i) {
      const algo::Task& t = s_.tasks[i];
      if (t.kind != algo::TaskKind::send) continue;
      for (const ByteRange& r : algo::data_ranges(s_, i))
        if (r.offset.n <= b && e <= r.offset.n + r.bytes.n) {
          into[t.dst].push_back(edges.size());
          edges.push_back({i, t.src, t.dst});
        }
    }
    auto own = [&](VertexId v) { return range(v, b, e).first->second.mask; };  // one segment: cuts include holdings
    std::string error;
    // What flows into v from every stream but `except`'s source (all when except is SIZE_MAX).
    std::function<Mask(VertexId, VertexId)> gather = [&](VertexId v, VertexId skip) -> Mask {
      Mask m = own(v);
      for (std::size_t k : into[v]) {
        Edge& in = edges[k];
        if (in.src == skip) continue;
        if (in.state == 1 && error.empty()) error = where(in.task, in.src, b, e) + "streams form a cycle: a contribution would count twice";
        if (in.state == 0) {
          in.state = 1;
          in.mask = gather(in.src, in.dst);
          if (in.mask == 0 && error.empty()) error = where(in.task, in.src, b, e) + "sends bytes its source does not hold";
          in.state = 2;
        }
        if ((m & in.mask) != 0 && error.empty()) error = where(in.task, in.dst, b, e) + "two streams bring the same contribution (" + hex(m & in.mask) + ")";
        m |= in.mask;
      }
      return m;
    };
    std::map<VertexId, Mask> result;
    for (const auto& [v, list] : into) result[v] = gather(v, static_cast<VertexId>(-1));
    if (!error.empty()) return error;
    for (const auto& [v, m] : result)
      for (auto [it, last] = range(v, b, e); it != last; ++it) it->second.mask = m;
    return "";
  }

  void ancestors()
  {
    const std::size_t words = (s_.tasks.size() + 63) / 64;
    anc_.assign(s_.tasks.size(), std::vector<std::uint64_t>(words, 0));
    for (std::size_t i = 0; i < s_.tasks.size(); ++i)
      for (std::uint32_t d : s_.tasks[i].deps) {
        DDPSIM_CHECK(d < i, "step schedule is not topologically ordered");
        for (std::size_t w = 0; w < words; ++w) anc_[i][w] |= anc_[d][w];
        anc_[i][d / 64] |= std::uint64_t{1} << (d % 64);
      }
  }

  // True when task `before` is guaranteed to finish before task `i` starts.
  bool ordered(std::uint32_t before, std::uint32_t i) const
  {
    if (before == i || s_.pipelined) return true;
    return (anc_[i][before / 64] >> (before % 64)) & 1;
  }

  // Splits `dev`'s holdings at b and e; returns the segments covering [b, e).
  std::pair<Holdings::iterator, Holdings::iterator> range(VertexId dev, std::uint64_t b, std::uint64_t e)
  {
    Holdings& h = held_[dev];
    if (b >= e) return {h.end(), h.end()};
    split(h, b);
    split(h, e);
    return {h.find(b), h.lower_bound(e)};
  }

  static void split(Holdings& h, std::uint64_t at)
  {
    auto it = h.upper_bound(at);
    if (it == h.begin()) return;
    --it;
    if (it->first == at || it->second.end <= at) return;
    Segment tail = it->second;
    it->second.end = at;
    h.emplace(at, std::move(tail));
  }

  static std::string hex(Mask m)
  {
    std::ostringstream o;
    o << "0x" << std::hex << m;
    return o.str();
  }

  std::string where(std::uint32_t i, VertexId dev, std::uint64_t b, std::uint64_t e) const
  {
    const algo::Task& t = s_.tasks[i];
    return "task " + std::to_string(i) + " (" + std::to_string(t.src) + " -> " + std::to_string(t.dst) + ") on device " +
           std::to_string(dev) + " [" + std::to_string(b) + ", " + std::to_string(e) + "): ";
  }
};

}  // namespace

std::string check_data(const algo::Algorithm& a, const algo::Request& req, const algo::StepSchedule& s)
{
  const std::size_t p = req.ranks.size();
  DDPSIM_CHECK(p >= 1 && p <= 64, "the data check handles 1 to 64 ranks");
  const Mask all = p == 64 ? ~Mask{0} : (Mask{1} << p) - 1;
  const ByteRange whole{Bytes{0}, req.bytes};
  Machine m(req, s);
  // What each rank starts with: its contribution over the whole buffer, or (all_gather) its
  // shard, or (broadcast) the root's buffer (rank 0, as in ddpsim's broadcast schedules).
  for (std::size_t r = 0; r < p; ++r) {
    const Mask mine = Mask{1} << r;
    switch (req.op) {
      case CollectiveOp::all_reduce:
      case CollectiveOp::reduce_scatter:
      case CollectiveOp::reduce: m.give(req.ranks[r], whole, mine); break;
      case CollectiveOp::all_gather:
        for (const ByteRange& b : a.shard(req, r)) m.give(req.ranks[r], b, mine);
        break;
      case CollectiveOp::broadcast:
        if (r == 0) m.give(req.ranks[r], whole, mine);
        break;
    }
  }
  if (s.pipelined) {
    if (std::string e = m.streams(); !e.empty()) return e;
  } else {
    for (std::uint32_t i = 0; i < s.tasks.size(); ++i)
      if (std::string e = m.run(i); !e.empty()) return e;
  }
  for (std::size_t r = 0; r < p; ++r) {
    const std::string who = "rank " + std::to_string(r);
    std::string e;
    switch (req.op) {
      case CollectiveOp::all_reduce: e = m.expect(req.ranks[r], whole, all, who); break;
      case CollectiveOp::reduce_scatter:
        for (const ByteRange& b : a.shard(req, r))
          if (e.empty()) e = m.expect(req.ranks[r], b, all, who);
        break;
      case CollectiveOp::all_gather:
        for (std::size_t q = 0; q < p && e.empty(); ++q)
          for (const ByteRange& b : a.shard(req, q))
            if (e.empty()) e = m.expect(req.ranks[r], b, Mask{1} << q, who);
        break;
      case CollectiveOp::broadcast: e = m.expect(req.ranks[r], whole, 1, who); break;
      case CollectiveOp::reduce:
        if (r == 0) e = m.expect(req.ranks[r], whole, all, who);
        break;
    }
    if (!e.empty()) return e;
  }
  return "";
}

}  // namespace ddpsim::test
