#include "calibrate/trace_index.hpp"

#include <algorithm>
#include <utility>

namespace ddpsim::calibrate {

TraceIndex::TraceIndex(const KinetoTrace& trace)
{
  std::map<std::string, std::vector<const TraceSpan*>> ops;
  std::map<std::int64_t, std::pair<std::string, double>> launches, flows;
  for (const TraceSpan& s : trace.spans) {
    if (s.kind == SpanKind::cpu_op) ops[s.tid].push_back(&s);
    if (s.kind == SpanKind::launch && s.correlation >= 0) launches[s.correlation] = {s.tid, s.ts};
  }
  for (const TraceFlow& f : trace.flows)
    if (f.start && !f.fwdbwd) flows[f.id] = {f.tid, f.ts};
  for (auto& [tid, list] : ops) {
    // Parents first: by start, the longer first at equal starts; an operator is top-level when it
    // starts at or after the end of the last top-level one.
    std::stable_sort(list.begin(), list.end(), [](const TraceSpan* a, const TraceSpan* b) {
      return a->ts != b->ts ? a->ts < b->ts : a->dur > b->dur;
    });
    std::vector<TopOp>& top = threads_[tid];
    for (const TraceSpan* s : list)
      if (top.empty() || s->ts >= top.back().span->end()) top.push_back(TopOp{s, 0, 0});
  }
  for (const TraceSpan& k : trace.spans) {
    if (k.kind != SpanKind::kernel) continue;
    const std::pair<std::string, double>* l = nullptr;
    if (const auto it = launches.find(k.correlation); it != launches.end()) l = &it->second;
    else if (const auto f = flows.find(k.correlation); f != flows.end()) l = &f->second;  // the ac2g flow of the same id
    if (!l) {
      ++unattributed_;
      continue;
    }
    if (k.name.rfind("nccl", 0) == 0) {
      nccl_.push_back(NcclKernel{l->first, l->second, k.dur});
      continue;
    }
    ++compute_kernels_;
    if (TopOp* op = find(l->first, l->second)) {
      op->gpu_us += k.dur;
      op->gpu_end = std::max(op->gpu_end, k.end());
    } else {
      ++unattributed_;
    }
  }
  // fwdbwd: "s" in the forward operator, "f" in the backward one, same id.
  std::map<std::int64_t, std::pair<const TopOp*, const TopOp*>> pairs;
  for (const TraceFlow& f : trace.flows)
    if (f.fwdbwd) (f.start ? pairs[f.id].first : pairs[f.id].second) = at(f.tid, f.ts);
  for (const auto& [id, p] : pairs)
    if (p.first && p.second && !links_.count(p.second->span)) links_[p.second->span] = p.first->span;
}

const std::vector<TopOp>& TraceIndex::thread(const std::string& tid) const
{
  static const std::vector<TopOp> none;
  const auto it = threads_.find(tid);
  return it == threads_.end() ? none : it->second;
}

TopOp* TraceIndex::find(const std::string& tid, double ts)
{
  const auto it = threads_.find(tid);
  if (it == threads_.end()) return nullptr;
  std::vector<TopOp>& v = it->second;
  auto p = std::upper_bound(v.begin(), v.end(), ts, [](double t, const TopOp& o) { return t < o.span->ts; });
  if (p == v.begin()) return nullptr;
  --p;
  return ts <= p->span->end() ? &*p : nullptr;
}

const TopOp* TraceIndex::at(const std::string& tid, double ts) const { return const_cast<TraceIndex*>(this)->find(tid, ts); }

const TraceSpan* TraceIndex::forward_of(const TraceSpan* backward) const
{
  const auto it = links_.find(backward);
  return it == links_.end() ? nullptr : it->second;
}

std::vector<std::string> TraceIndex::threads() const
{
  std::vector<std::string> out;
  for (const auto& [tid, v] : threads_) out.push_back(tid);
  return out;
}

}  // namespace ddpsim::calibrate
