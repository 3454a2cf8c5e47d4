#include "sim/step/step_run.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "sim/step/overheads.hpp"

namespace ddpsim::sim {
namespace {

Time scaled(Time t, double scale) { return scale == 1.0 ? t : Time{std::llround(static_cast<double>(t.ps) * scale)}; }

}  // namespace

StepRun::StepRun(const IterationSetup& setup, Timeline* timeline, const std::vector<JobTiming>* planned)
    : s_(setup),
      model_(*setup.model),
      timeline_(timeline),
      classes_(setup.classes.empty() ? std::vector<RankClass>{RankClass{1, 1.0, setup.loader, Time{0}}} : setup.classes),
      comm_(engine_, *setup.network, planned),
      reducer_(make_reducer(model_, setup.framework)),
      arrived_(model_.layers.size(), 0),
      backward_start_(classes_.size()),
      backward_end_(classes_.size()),
      gather_wait_(classes_.size()),
      end_(classes_.size()),
      copy_in_(model_.layers.size()),
      interference_(classes_.size()),
      raw_end_(classes_.size())
{
  reducer_->on_release = [this](const CommJob& j) { reduce(j); };
  // DDP copies each gradient into its bucket as autograd produces it (reducer.cpp
  // mark_variable_ready_dense) and back after the reductions (overheads.hpp bucket_copy_time).
  const IterationOverheads& o = s_.overheads;
  if (o.copy_hbm.bytes_per_s > 0)
    for (std::size_t l = 0; l < model_.layers.size(); ++l) {
      Bytes grads{0};
      for (const Tensor& t : model_.layers[l].params) grads += Bytes{t.numel * static_cast<std::uint64_t>(s_.framework.bytes_per_element)};
      copy_in_[l] = bucket_copy_time(grads, o.copy_hbm);
      copy_out_ += copy_in_[l];
    }
  const std::size_t n = model_.layers.size();
  for (const ShardedJob& g : s_.gathers) {
    if (g.when == When::after_step) {
      after_.push_back(&g);
      continue;
    }
    auto& per_layer = gather_of_[g.when == When::forward ? fwd : bwd];
    per_layer.resize(n, nullptr);
    DDPSIM_CHECK(g.layer < n, "a parameter gather names no layer");
    per_layer[g.layer] = &g;
    layered_forward_ = true;
  }
  DDPSIM_CHECK(s_.gathers.empty() || s_.price, "parameter gathers need a price");
}

IterationResult StepRun::run()
{
  const std::int64_t k = s_.accum_steps;
  for (std::uint32_t c = 0; c < classes_.size(); ++c) {
    const double scale = classes_[c].compute_scale;
    DDPSIM_CHECK(scale > 0 && std::isfinite(scale), "rank class compute scale must be positive");
    const Time t0 = classes_[c].start;
    if (layered_forward_) {
      engine_.at(t0, [this, c] { start_pass(c, 0, fwd); });
      continue;
    }
    // The k-1 accumulation micro-steps, then the last micro-step's forward, then backward.
    const Time accumulation = scaled(s_.times.forward_total + s_.times.backward_total, scale) * (k - 1);
    const Time forward = scaled(s_.times.forward_total, scale);
    if (c == 0 && timeline_) {
      if (k > 1) span(Stream::compute, "accumulation micro-steps", t0, t0 + accumulation);
      span(Stream::compute, "forward", t0 + accumulation, t0 + accumulation + forward);
    }
    engine_.at(t0 + accumulation + forward, [this, c] { start_pass(c, s_.accum_steps - 1, bwd); });
  }
  engine_.run();
  DDPSIM_CHECK(optimizers_done_ == classes_.size() && after_done_ == after_.size(), "the step did not finish");
  IterationResult r = finish();
  r.events = engine_.events_processed();
  return r;
}

void StepRun::start_pass(std::uint32_t c, int micro, Pass pass)
{
  if (layered_forward_ && ++passes_[{micro, pass}].started == classes_.size()) release_gathers(micro, pass);
  if (pass == fwd) return forward_layer(c, micro, 0);
  if (micro + 1 == s_.accum_steps) backward_start_[c] = engine_.now();
  backward_layer(c, micro, static_cast<std::uint32_t>(model_.layers.size()));
}

void StepRun::forward_layer(std::uint32_t c, int micro, std::uint32_t i)
{
  if (i == model_.layers.size()) return start_pass(c, micro, bwd);
  after_gather(c, micro, fwd, i, [this, c, micro, i] {
    const Time d = scaled(s_.times.forward[i], classes_[c].compute_scale);
    if (c == 0 && timeline_) span(Stream::compute, "fwd " + model_.layers[i].name, engine_.now(), engine_.now() + d);
    engine_.after(d, [this, c, micro, i] { forward_layer(c, micro, i + 1); });
  });
}

// Backward of layer `i - 1` of class c (layers run from the last to the first).
void StepRun::backward_layer(std::uint32_t c, int micro, std::uint32_t i)
{
  const bool last = micro + 1 == s_.accum_steps;
  if (i == 0) {
    if (!last) return start_pass(c, micro + 1, fwd);
    raw_end_[c] = engine_.now();
    ++backward_done_;
    return check_gradients_reduced();
  }
  const std::uint32_t layer = i - 1;
  after_gather(c, micro, bwd, layer, [this, c, micro, layer, last] {
    const Time d = scaled(s_.times.backward[layer], classes_[c].compute_scale) + (last ? copy_in_[layer] : Time{0});
    if (c == 0 && timeline_) span(Stream::compute, "bwd " + model_.layers[layer].name, engine_.now(), engine_.now() + d);
    engine_.after(d, [this, c, micro, layer, last] {
      // A layer's gradients are ready for the collectives once every class has them.
      if (last && ++arrived_[layer] == classes_.size()) reducer_->gradient_ready(engine_, layer);
      backward_layer(c, micro, layer);
    });
  });
}

// Runs `then` once this pass's gather of `layer` (if any) has ended; the wait is the class's.
void StepRun::after_gather(std::uint32_t c, int micro, Pass pass, std::size_t layer, std::function<void()> then)
{
  const auto& per_layer = gather_of_[pass];
  if (per_layer.empty() || !per_layer[layer]) return then();
  GatherPass& gp = passes_[{micro, pass}];
  if (!gp.done.empty() && gp.done[layer]) return then();
  gp.waiting[layer].push_back([this, c, t0 = engine_.now(), then = std::move(then)] {
    gather_wait_[c] += engine_.now() - t0;
    then();
  });
}

// Every class has started the pass: its gathers go on the gather stream, in execution order.
void StepRun::release_gathers(int micro, Pass pass)
{
  const auto& per_layer = gather_of_[pass];
  passes_[{micro, pass}].done.assign(model_.layers.size(), 0);
  const std::size_t n = per_layer.size();
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t l = pass == fwd ? j : n - 1 - j;
    if (!per_layer[l]) continue;
    PricedCollective p = s_.price(per_layer[l]->op, per_layer[l]->bytes);
    comm_.submit(CollectiveJob{engine_.now(), kGather, std::move(p.schedule), "gather layer " + std::to_string(l)},
                 [this, micro, pass, l] {
                   GatherPass& gp = passes_[{micro, pass}];
                   gp.done[l] = 1;
                   std::vector<std::function<void()>> resume = std::move(gp.waiting[l]);
                   for (auto& f : resume) f();
                 });
  }
}

// A reduction released by the reducer: priced, launched on the host, run on the reduction stream.
void StepRun::reduce(const CommJob& j)
{
  PricedCollective p = s_.collective(j.bytes);
  const std::size_t b = buckets_.size();
  buckets_.push_back(BucketTiming{j.bytes, j.ready, Time{0}, Time{0}, p.algorithm, p.protocol, p.channels, p.wire_bytes});
  last_release_ = j.ready;
  reductions_.push_back(comm_.submit(
      CollectiveJob{j.ready + s_.overheads.launch, kReduce, std::move(p.schedule), "bucket " + std::to_string(b)}, [this] {
        ++reduced_;
        check_gradients_reduced();
      }));
}

// Every class's backward is done and every reduction has ended: each class's optimizer runs.
void StepRun::check_gradients_reduced()
{
  if (reduced_all_ || backward_done_ < classes_.size() || !reducer_->idle() || reduced_ < reductions_.size()) return;
  reduced_all_ = true;
  for (std::size_t i : reductions_) comm_end_ = max(comm_end_, comm_.timings()[i].end);
  for (std::uint32_t c = 0; c < classes_.size(); ++c) {
    interference_[c] = interference(c);
    backward_end_[c] = raw_end_[c] + interference_[c];
    const Time grads_done = max(backward_end_[c], comm_end_) + copy_out_;
    end_[c] = grads_done + scaled(s_.optimizer, classes_[c].compute_scale) + s_.step_overhead;
    engine_.at(max(end_[c], engine_.now()), [this] { class_done(); });
  }
}

// Every class has stepped its optimizer: ZeRO-1/2 gather the updated parameters.
void StepRun::class_done()
{
  if (++optimizers_done_ < classes_.size()) return;
  for (const ShardedJob* g : after_) {
    PricedCollective p = s_.price(g->op, g->bytes);
    comm_.submit(CollectiveJob{engine_.now(), kGather, std::move(p.schedule), "gather params"}, [this] {
      if (++after_done_ == after_.size()) after_end_ = engine_.now();
    });
  }
}

// Backward slowed by the collectives it overlaps (overheads.hpp overlap_slowdown): while a
// collective runs, compute progresses at 1/slowdown of its speed, and the work it did not do is
// done afterwards at full speed: the class's backward grows by the overlapped time x
// (1 - 1/slowdown). The collective's HBM traffic is its schedule's wire bytes per rank x HBM
// bytes per wire byte. First order: the overlap is measured on the unslowed backward and the
// gradients' ready times do not move.
Time StepRun::interference(std::uint32_t c) const
{
  const IterationOverheads& o = s_.overheads;
  if (o.hbm.bytes_per_s <= 0) return Time{0};
  Time sum{0};
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    const JobTiming& t = comm_.timings()[reductions_[b]];
    const Time busy = t.end - t.start;
    if (busy <= Time{0}) continue;
    const double comm_hbm = o.hbm_bytes_per_wire_byte * buckets_[b].wire_bytes / busy.seconds();
    const int ctas = o.comm_ctas > 0 ? o.comm_ctas : buckets_[b].channels;
    const bool sms = o.sm_count > ctas;
    const double lost = 1.0 - 1.0 / overlap_slowdown(sms ? ctas : 0, sms ? o.sm_count : 1, Bandwidth{comm_hbm}, o.hbm);
    const Time end = t.end < raw_end_[c] ? t.end : raw_end_[c];
    const Time overlap = end - max(t.start, backward_start_[c]);
    if (overlap > Time{0}) sum += Time{std::llround(static_cast<double>(overlap.ps) * lost)};
  }
  return sum;
}

}  // namespace ddpsim::sim
