// StepRun's result: the slowest class's breakdown, the buckets, the trace spans.
#include <algorithm>
#include <cmath>

#include "sim/step/overheads.hpp"
#include "sim/step/step_run.hpp"

namespace ddpsim::sim {
namespace {

Time scaled(Time t, double scale) { return scale == 1.0 ? t : Time{std::llround(static_cast<double>(t.ps) * scale)}; }

}  // namespace

IterationResult StepRun::finish()
{
  IterationResult r;
  std::size_t slowest = 0;
  for (std::size_t c = 0; c < classes_.size(); ++c)
    if (end_[c] > end_[slowest]) slowest = c;
  const Time optimizers_end = end_[slowest];
  const Time step_end = after_.empty() ? optimizers_end : after_end_;
  const RankClass& rc = classes_[slowest];
  const std::int64_t k = s_.accum_steps;
  r.forward = scaled(s_.times.forward_total, rc.compute_scale) * k;
  r.backward = scaled(s_.times.backward_total, rc.compute_scale) * k;
  r.optimizer = scaled(s_.optimizer, rc.compute_scale);
  r.overhead = s_.step_overhead;
  r.gather_exposed = gather_wait_[slowest] + (step_end - optimizers_end);
  r.exposed_comm = max(backward_end_[slowest], comm_end_) - backward_end_[slowest] + r.gather_exposed;
  r.interference = interference_[slowest];
  r.bucket_copy = copy_out_ * 2;
  r.launch = launch_cost(static_cast<int>(buckets_.size()), s_.overheads.launch);
  r.negotiation = s_.framework.horovod_negotiation * reducer_->cycles();
  // How much later the last gradients reach the collectives than the fastest class has them.
  r.sync_wait = *std::max_element(backward_end_.begin(), backward_end_.end()) -
                *std::min_element(backward_end_.begin(), backward_end_.end());
  Time loader{0};
  for (const RankClass& c : classes_) loader = max(loader, c.loader);
  r.loader_wait = loader > step_end ? loader - step_end : Time{0};
  r.step = step_end + r.loader_wait;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    const JobTiming& t = comm_.timings()[reductions_[b]];
    buckets_[b].start = t.start;
    buckets_[b].end = t.end;
    r.comm_busy += t.end - t.start;
  }
  for (std::size_t i = 0; i < comm_.jobs().size(); ++i)
    if (comm_.jobs()[i].stream == kGather) r.gather_busy += comm_.timings()[i].end - comm_.timings()[i].start;
  r.comm_busy += r.gather_busy;
  for (std::size_t c = 0; c < classes_.size(); ++c) r.class_end.push_back(after_.empty() ? end_[c] : after_end_);
  r.class_gradients = raw_end_;
  r.last_release = last_release_;
  if (timeline_) {
    const Time grads_done = max(backward_end_[0], comm_end_) + copy_out_;
    span(Stream::optimizer, "optimizer", grads_done, grads_done + scaled(s_.optimizer, classes_[0].compute_scale));
    if (loader > Time{0}) span(Stream::loader, "load next batches", Time{0}, loader);
    // The GPU idles until the next batch is ready (issue 11: the trace shows the loader wait).
    if (r.loader_wait > Time{0}) span(Stream::compute, "loader wait", step_end, r.step);
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      const BucketTiming& t = buckets_[b];
      span(Stream::comm, "bucket " + std::to_string(b), t.start, t.end,
           {{"bytes", std::to_string(t.bytes.n)},
            {"bucket", std::to_string(b)},
            {"algorithm", std::string(t.algorithm->name())},
            {"protocol", t.protocol ? std::string(to_string(*t.protocol)) : "-"},
            {"channels", std::to_string(t.channels)}});
    }
    for (std::size_t i = 0; i < comm_.jobs().size(); ++i)
      if (comm_.jobs()[i].stream == kGather)
        span(Stream::comm, comm_.jobs()[i].label, comm_.timings()[i].start, comm_.timings()[i].end);
  }
  r.buckets = std::move(buckets_);
  return r;
}

void StepRun::span(Stream stream, std::string name, Time start, Time end, std::vector<std::pair<std::string, std::string>> args)
{
  timeline_->add(Span{0, 0, stream, "", std::move(name), start, end, std::move(args)});
}

}  // namespace ddpsim::sim
