#include "calibrate/trace_steps.hpp"

#include <algorithm>
#include <map>

#include "calibrate/trace_index.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool is_backward(const TraceSpan* s) { return starts(s->name, "autograd::engine::evaluate_function"); }
bool is_reduction(const std::string& c)
{
  return c.find("allreduce") != std::string::npos || c.find("reduce_scatter") != std::string::npos;
}

struct Window {
  double from = 0, to = 0;
  bool holds(double t) const { return t >= from && t <= to; }
};

struct Phases {
  std::vector<Window> zero_grad, step, loader;
  bool inside(double t) const
  {
    for (const auto* v : {&zero_grad, &step, &loader})
      for (const Window& w : *v)
        if (w.holds(t)) return true;
    return false;
  }
};

// Wall time of an annotated phase: its start to the completion of the operators inside it.
double phase_time(const TraceIndex& idx, const std::string& tid, const Window& w, double& gpu)
{
  double end = w.to;
  for (const TopOp& o : idx.thread(tid))
    if (w.holds(o.span->ts)) {
      end = std::max(end, o.done());
      gpu += o.gpu_us;
    }
  return end - w.from;
}

StepParts split(const KinetoTrace& trace, const TraceIndex& idx, const std::string& name, const std::string& main,
                Window step, std::size_t at)
{
  StepParts p;
  p.name = name;
  p.step_us = step.to - step.from;
  Phases ph;
  for (const TraceSpan& s : trace.spans)
    if (s.kind == SpanKind::annotation && s.tid == main && step.holds(s.ts)) {
      const Window w{s.ts, s.end()};
      if (starts(s.name, "Optimizer.zero_grad")) ph.zero_grad.push_back(w);
      else if (starts(s.name, "Optimizer.step")) ph.step.push_back(w);
      else if (starts(s.name, "enumerate(DataLoader)")) ph.loader.push_back(w);
    }
  // The first backward operator, on any thread.
  const TopOp* first = nullptr;
  for (const std::string& tid : idx.threads())
    for (const TopOp& o : idx.thread(tid))
      if (step.holds(o.span->ts) && is_backward(o.span) && !ph.inside(o.span->ts) && (!first || o.span->ts < first->span->ts))
        first = &o;
  if (!first)
    throw UserError(SourceLocation{trace.file, 0, 0}, "traceEvents[" + std::to_string(at) + "]",
                    name + " has no backward operators (autograd::engine::evaluate_function): not a training step");
  double opt_start = step.to;
  for (const Window& w : ph.step)
    if (w.from > first->span->ts) opt_start = std::min(opt_start, w.from);
  std::vector<const TopOp*> fwd, bwd;
  for (const TopOp& o : idx.thread(main))
    if (step.holds(o.span->ts) && o.span->ts < first->span->ts && !ph.inside(o.span->ts)) fwd.push_back(&o);
  for (const TopOp& o : idx.thread(first->span->tid))
    if (o.span->ts >= first->span->ts && o.span->ts < opt_start && !ph.inside(o.span->ts)) bwd.push_back(&o);
  if (fwd.empty())
    throw UserError(SourceLocation{trace.file, 0, 0}, "traceEvents[" + std::to_string(at) + "]",
                    name + " has no forward operators before its backward");
  // The critical path: each operator completes at the later of its own completion and the previous one's.
  double c = fwd.front()->span->ts;
  auto advance = [&c](const TopOp* o) {
    const double next = std::max(c, o->done());
    const double t = next - c;
    c = next;
    return t;
  };
  std::vector<double> ft, bt;
  for (const TopOp* o : fwd) ft.push_back(advance(o));
  for (const TopOp* o : bwd) bt.push_back(advance(o));
  std::vector<double> bdone(bwd.size());  // the path after each backward operator
  {
    double cc = c;
    for (std::size_t j = bwd.size(); j-- > 0;) {
      bdone[j] = cc;
      cc -= bt[j];
    }
  }
  // Buckets: reductions launched in the backward, each in the backward operator holding it.
  std::size_t last = bwd.size() - 1;
  bool any = false;
  std::vector<std::pair<const TraceSpan*, std::size_t>> launches;
  std::size_t sized = 0, calls = 0;
  for (const TraceSpan& s : trace.spans) {
    if (s.ts < first->span->ts || s.ts >= opt_start) continue;
    if (s.name == "c10d::allreduce_" || s.name == "c10d::reduce_scatter_") ++calls;
    if (s.name != "record_param_comms" || !is_reduction(s.collective)) continue;
    ++sized;
    if (s.nelems == 0) {
      ++p.unsized;
      continue;
    }
    std::size_t j = 0;
    for (std::size_t k = 0; k < bwd.size(); ++k)
      if (bwd[k]->span->ts <= s.ts) j = k;
    launches.push_back({&s, j});
  }
  if (sized == 0) p.unsized = calls;
  std::sort(launches.begin(), launches.end(), [](const auto& a, const auto& b) { return a.first->ts < b.first->ts; });
  for (const auto& [s, j] : launches) {
    last = any ? std::max(last, j) : j;
    any = true;
  }
  // After the last bucket: DDP's copies out of the buckets (their own time) and the wait for the reductions.
  double tail_work = 0, tail_gpu = 0;
  for (std::size_t j = last + 1; j < bwd.size(); ++j) {
    tail_work += std::max(bwd[j]->span->dur, bwd[j]->gpu_us);
    tail_gpu += bwd[j]->gpu_us;
  }
  const double tail_wall = c - bdone[last];
  p.exposed_comm_us = std::max(0.0, tail_wall - tail_work);
  // Layers: a backward operator linked to a forward one opens a layer; the others join it.
  std::vector<std::size_t> seg_of(last + 1);
  std::vector<StepLayer> segs;
  std::map<const TraceSpan*, std::size_t> fwd_seg;
  for (std::size_t j = 0; j <= last; ++j) {
    const TraceSpan* f = idx.forward_of(bwd[j]->span);
    if (segs.empty() || f) {
      std::string n = f ? f->name : bwd[j]->span->name;
      if (const std::size_t colon = n.find(": "); !f && is_backward(bwd[j]->span) && colon != std::string::npos) n = n.substr(colon + 2);
      segs.push_back(StepLayer{n, 0, 0, 0, 0});
    }
    if (f && !fwd_seg.count(f)) fwd_seg[f] = segs.size() - 1;
    seg_of[j] = segs.size() - 1;
    segs.back().backward_us += bt[j];
    segs.back().backward_gpu_us += std::min(bt[j], bwd[j]->gpu_us);
  }
  // Forward operators: to their layer; unlinked ones to the layer of the linked one before them
  // (leading ones to the first linked one's).
  std::size_t carry = fwd_seg.empty() ? segs.size() - 1 : fwd_seg.begin()->second;
  for (std::size_t i = 0; i < fwd.size(); ++i)
    if (const auto it = fwd_seg.find(fwd[i]->span); it != fwd_seg.end()) {
      carry = it->second;
      break;
    }
  for (std::size_t i = 0; i < fwd.size(); ++i) {
    if (const auto it = fwd_seg.find(fwd[i]->span); it != fwd_seg.end()) carry = it->second;
    segs[carry].forward_us += ft[i];
    segs[carry].forward_gpu_us += std::min(ft[i], fwd[i]->gpu_us);
  }
  p.linked = !fwd_seg.empty();
  const std::size_t S = segs.size();
  p.layers.assign(segs.rbegin(), segs.rend());
  for (const auto& [s, j] : launches) {
    StepBucket b{s->nelems, s->dtype, s->collective, S - 1 - seg_of[std::min(j, last)], 0, s->index};
    for (const NcclKernel& k : idx.nccl())
      if (k.tid == s->tid && k.launch_ts >= s->ts && k.launch_ts <= s->end()) b.kernel_us += k.dur;
    p.buckets.push_back(b);
  }
  double opt = 0, opt_gpu = 0;
  for (const auto* v : {&ph.zero_grad, &ph.step})
    for (const Window& w : *v) opt += phase_time(idx, main, w, opt_gpu);
  p.optimizer_us = opt + tail_work;
  p.optimizer_gpu_us = opt_gpu + tail_gpu;
  for (const Window& w : ph.loader) p.input_us += w.to - w.from;
  for (const TopOp* o : fwd) p.gpu = p.gpu || o->gpu_us > 0;
  for (const TopOp* o : bwd) p.gpu = p.gpu || o->gpu_us > 0;
  return p;
}

}  // namespace

std::vector<StepParts> split_steps(const KinetoTrace& trace)
{
  const TraceIndex idx(trace);
  std::vector<const TraceSpan*> marks;
  for (const TraceSpan& s : trace.spans)
    if (s.kind == SpanKind::annotation && starts(s.name, "ProfilerStep#")) marks.push_back(&s);
  std::sort(marks.begin(), marks.end(), [](const TraceSpan* a, const TraceSpan* b) { return a->ts < b->ts; });
  std::vector<StepParts> out;
  for (const TraceSpan* m : marks) out.push_back(split(trace, idx, m->name, m->tid, Window{m->ts, m->end()}, m->index));
  if (marks.empty()) {
    // No step markers: the whole trace, on the thread with the most operators.
    std::string main;
    Window all{1e300, -1e300};
    for (const std::string& tid : idx.threads()) {
      const auto& v = idx.thread(tid);
      if (main.empty() || v.size() > idx.thread(main).size()) main = tid;
      for (const TopOp& o : v) all = Window{std::min(all.from, o.span->ts), std::max(all.to, o.span->end())};
    }
    if (main.empty()) throw UserError(SourceLocation{trace.file, 0, 0}, "traceEvents", "no cpu_op events: not a PyTorch profiler trace");
    out.push_back(split(trace, idx, "whole trace", main, all, 0));
  }
  for (StepParts& p : out) p.unattributed_kernels = idx.unattributed();
  return out;
}

}  // namespace ddpsim::calibrate
