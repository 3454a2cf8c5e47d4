#include "sim/step/iteration.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "sim/engine/engine.hpp"
#include "sim/step/interference.hpp"
#include "sim/step/overheads.hpp"
#include "sim/step/reducers.hpp"

namespace ddpsim::sim {
namespace {

Time scaled(Time t, double scale) { return scale == 1.0 ? t : Time{std::llround(static_cast<double>(t.ps) * scale)}; }

Time total(const std::vector<Time>& times)
{
  Time sum{0};
  for (Time t : times) sum += t;
  return sum;
}

// The state of one iteration on the engine: per-class compute streams that report gradients,
// the framework's reducer, then the communication stream's completions and each class's optimizer.
class IterationRun {
 public:
  IterationRun(const IterationSetup& setup, Timeline* timeline)
      : s_(setup),
        model_(*setup.model),
        timeline_(timeline),
        classes_(setup.classes.empty() ? std::vector<RankClass>{RankClass{1, 1.0, setup.loader}} : setup.classes),
        arrived_(model_.layers.size(), 0),
        produced_at_(model_.layers.size()),
        backward_start_(classes_.size()),
        backward_end_(classes_.size()),
        copy_in_(model_.layers.size())
  {
    // DDP copies each gradient into its bucket as autograd produces it (reducer.cpp
    // mark_variable_ready_dense): read + write of the layer's gradient bytes on the compute stream,
    // and back after the reductions. Casts and in-place divisions (grad_pass_*) go the same way.
    const IterationOverheads& o = s_.overheads;
    if (o.copy_hbm.bytes_per_s > 0 || o.grad_pass_hbm.bytes_per_s > 0)
      for (std::size_t l = 0; l < model_.layers.size(); ++l) {
        std::uint64_t elements = 0;
        for (const Tensor& t : model_.layers[l].params) elements += t.grad ? t.numel : 0;
        const double n = static_cast<double>(elements);
        if (o.copy_hbm.bytes_per_s > 0) {
          const Time copy = transfer_time(2.0 * n * s_.framework.bytes_per_element, o.copy_hbm);
          copy_in_[l] += copy;
          copy_out_ += copy;
        }
        if (o.grad_pass_hbm.bytes_per_s > 0) {
          copy_in_[l] += transfer_time(o.grad_pass_in_bytes * n, o.grad_pass_hbm);
          if (!o.grad_pass_out_per_bucket) copy_out_ += transfer_time(o.grad_pass_out_bytes * n, o.grad_pass_hbm);
        }
      }
    reducer_ = make_reducer(model_, horovod_phase());
  }

  IterationResult run()
  {
    const std::int64_t k = s_.accum_steps;
    for (std::uint32_t c = 0; c < classes_.size(); ++c) {
      const double scale = classes_[c].compute_scale;
      DDPSIM_CHECK(scale > 0 && std::isfinite(scale), "rank class compute scale must be positive");
      const Time forward = scaled(s_.times.forward_total, scale);
      backward_start_[c] = backward_start_at(scale);
      const Time accumulation = backward_start_[c] - forward;
      if (c == 0 && timeline_) {
        if (k > 1) span(Stream::compute, "accumulation micro-steps", Time{0}, accumulation);
        span(Stream::compute, "forward", accumulation, backward_start_[c]);
      }
      engine_.at(backward_start_[c], [this, c] { backward_layer(c, static_cast<std::uint32_t>(model_.layers.size())); });
    }
    engine_.run();
    communicate();
    IterationResult r = finish();
    r.events = engine_.events_processed();
    return r;
  }

 private:
  // DDP's comm hook decompresses each bucket in its future's callback, which PyTorch runs on a
  // stream from its pool that waits for the collective (torch/futures/__init__.py, Future.then:
  // "invoked with some dedicated streams set as current (fetched from a global pool) which will be
  // synchronized with those kernels"; the hook's `decompress` in ddp_comm_hooks/default_hooks.py):
  // so each bucket's cast back runs right after its own collective, beside the next ones and
  // backward, not after all of them. 0 where the framework pays it at the end (copy_out_).
  Time passes_after(const CommJob& job) const
  {
    const IterationOverheads& o = s_.overheads;
    if (!o.grad_pass_out_per_bucket || o.grad_pass_hbm.bytes_per_s <= 0) return Time{0};
    std::uint64_t elements = 0;
    for (const TensorRef& t : job.tensors) elements += model_.layers[t.layer].params[t.tensor].numel;
    return transfer_time(o.grad_pass_out_bytes * static_cast<double>(elements), o.grad_pass_hbm);
  }

  // When every reduction is done and its result is back in the buckets: the last collective's
  // end, or a bucket's cast back after its collective if that ends later.
  Time reductions_done() const
  {
    Time done = comm_end_;
    for (std::size_t b = 0; b < buckets_.size(); ++b) done = max(done, buckets_[b].end + bucket_out_[b]);
    return done;
  }

  // Horovod's background thread is not synchronised with the training loop: from step to step its
  // cycles fall at another phase of the step (horovod/common/operations.cc RunLoopOnce sleeps until
  // the last cycle's start + HOROVOD_CYCLE_TIME, whatever the step does), so the last gradient waits on average
  // half a cycle for the tick that releases it. Aligning the cycles with the step's start instead
  // made that wait any value in [0, cycle) by the accident of the step's length (a 1-GPU ResNet-50
  // step waited 3.8 ms of a 5 ms cycle, its 8-GPU row 0.7 ms). The phase puts the tick half a
  // cycle after the slowest class's unslowed backward end (before interference moves it).
  FrameworkOptions horovod_phase() const
  {
    FrameworkOptions o = s_.framework;
    if (traits(o.framework).path != GradientPath::horovod_fusion || o.cycle_phase) return o;
    Time last{0};
    for (const RankClass& c : classes_)
      last = std::max(last, backward_start_at(c.compute_scale) + scaled(s_.times.backward_total, c.compute_scale));
    last += total(copy_in_);  // the per-layer copies into the buckets (and casts) on the compute stream
    const Time cycle = horovod_cycle_time(o);
    o.cycle_phase = last + Time{cycle.ps / 2};  // the reducer takes it modulo the cycle
    return o;
  }

  // When a class of this compute scale starts its last micro-step's backward: the k-1 accumulation
  // micro-steps, then the last micro-step's forward.
  Time backward_start_at(double scale) const
  {
    return scaled(s_.times.forward_total + s_.times.backward_total, scale) * (s_.accum_steps - 1) +
           scaled(s_.times.forward_total, scale);
  }

  // Starts backward of layer `i - 1` of class c (layers run from the last to the first).
  void backward_layer(std::uint32_t c, std::uint32_t i)
  {
    if (i == 0) {
      backward_end_[c] = engine_.now();
      return;
    }
    const std::uint32_t layer = i - 1;
    const Time d = scaled(s_.times.backward[layer], classes_[c].compute_scale) + copy_in_[layer];
    if (c == 0 && timeline_) span(Stream::compute, "bwd " + model_.layers[layer].name, engine_.now(), engine_.now() + d);
    engine_.after(d, [this, c, layer] {
      // A layer's gradients are ready for the collectives once every class has them.
      if (++arrived_[layer] == classes_.size()) {
        produced_at_[layer] = engine_.now();
        reducer_->gradient_ready(engine_, layer);
      }
      backward_layer(c, layer);
    });
  }

  // The released reductions, priced and run in release order on the communication stream. The
  // backend times them all at once (the flow engine shares links among the ones in flight), which
  // is exact while the streams do not feed back on each other (compute does not wait for
  // communication before the optimizer).
  void communicate()
  {
    const std::vector<CommJob>& plan = reducer_->released();
    std::vector<CollectiveJob> jobs;
    jobs.reserve(plan.size());
    std::vector<std::size_t> first_job;
    for (std::size_t b = 0; b < plan.size(); ++b) {
      PricedCollective p = s_.collective(plan[b].bytes);
      buckets_.push_back(BucketTiming{plan[b].bytes, plan[b].ready, Time{0}, Time{0}, p.algorithm, p.protocol, p.channels});
      Time produced{0};
      for (const TensorRef& t : plan[b].tensors) produced = max(produced, produced_at_[t.layer]);
      bucket_produced_.push_back(produced);
      // A library whose host servers run part of the collective (Herring, the parameter server:
      // algo::Phase::on_host) runs each side on a stream of its own: part k on stream k (the GPU's
      // way in, the servers, the GPU's way back), each part after the one before it. The servers
      // then work on one buffer while the GPUs move the next (docs/model.md, "Herring and the
      // parameter server"); one part on stream 0 for everything else, as NCCL runs on one stream.
      std::vector<algo::CoarseSchedule> parts = algo::split_by_side(p.schedule);
      // Horovod copies a response of several tensors into its fusion buffer before the collective
      // and back out after it, on the same stream (horovod/common/ops/nccl_operations.cc,
      // NCCLAllreduce::Execute: MemcpyInFusionBuffer, ncclAllReduce, MemcpyOutFusionBuffer when
      // entries.size() > 1; one tensor is reduced from its input into its output, no copy): read +
      // write each way, 4 x the buffer's bytes at HBM rate, paid once per collective.
      // apex's DDP runs its passes there too (overhead_setup.cpp).
      const IterationOverheads& oh = s_.overheads;
      if (oh.fusion_copy_hbm.bytes_per_s > 0 && (plan[b].tensors.size() > 1 || (oh.fusion_copy_single && !plan[b].tensors.empty())))
        parts.front().fixed_latency += transfer_time(oh.fusion_copy_bytes_per_byte * plan[b].bytes.as_double(), oh.fusion_copy_hbm);
      bucket_out_.push_back(passes_after(plan[b]));
      first_job.push_back(jobs.size());
      for (std::size_t k = 0; k < parts.size(); ++k) {
        CollectiveJob job;
        // The hook and the launch happen on the host after the bucket is ready (overheads.hpp).
        job.ready = k == 0 ? plan[b].ready + s_.overheads.launch : Time{0};
        job.stream = static_cast<int>(k);
        job.schedule = std::move(parts[k]);
        job.label = (plan[b].tensors.empty() ? std::string("used-parameter map") : "bucket " + std::to_string(b)) +
                    (parts.size() > 1 ? " part " + std::to_string(k + 1) : "");
        if (k > 0) job.after = jobs.size() - 1;
        jobs.push_back(std::move(job));
      }
    }
    first_job.push_back(jobs.size());
    const std::vector<JobTiming> timings = s_.network->run(jobs);
    DDPSIM_CHECK(timings.size() == jobs.size(), "network backend lost jobs");
    parts_.resize(buckets_.size());
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      for (std::size_t j = first_job[b]; j < first_job[b + 1]; ++j)
        parts_[b].push_back(CollectivePart{jobs[j].stream, timings[j].start, timings[j].end});
      buckets_[b].start = parts_[b].front().start;
      buckets_[b].end = parts_[b].back().end;
      comm_end_ = max(comm_end_, buckets_[b].end);
    }
    interfere();
  }

  // Backward slowed by the collectives it overlaps (sim/step/interference.hpp): the releases
  // first move to when their gradients exist on the slowed backward, then each class's backward
  // grows by the time it ran beside the moved collectives.
  void interfere()
  {
    const IterationOverheads& o = s_.overheads;
    if (o.hbm.bytes_per_s <= 0 && !o.serialized) return;
    const std::vector<double> lost = speed_lost(buckets_, o);
    std::size_t last = 0;  // the class whose backward ends last produces the gradients last
    for (std::size_t c = 1; c < classes_.size(); ++c)
      if (backward_end_[c] > backward_end_[last]) last = c;
    comm_end_ = shift_releases(buckets_, parts_, bucket_produced_, lost, backward_start_[last], o.launch);
    interference_.assign(classes_.size(), Time{0});
    for (std::size_t c = 0; c < classes_.size(); ++c)
      interference_[c] = interference_time(buckets_, lost, backward_start_[c], backward_end_[c]);
    for (std::size_t c = 0; c < classes_.size(); ++c) backward_end_[c] += interference_[c];
  }

  IterationResult finish()
  {
    IterationResult r;
    std::vector<Time> end(classes_.size());
    std::size_t slowest = 0;
    const Time reduced = reductions_done();
    for (std::uint32_t c = 0; c < classes_.size(); ++c) {
      const Time grads_done = max(backward_end_[c], reduced) + copy_out_;
      end[c] = grads_done + scaled(s_.optimizer, classes_[c].compute_scale) + s_.step_overhead;
      if (end[c] > end[slowest]) slowest = c;
    }
    const RankClass& rc = classes_[slowest];
    const std::int64_t k = s_.accum_steps;
    r.forward = scaled(s_.times.forward_total, rc.compute_scale) * k;
    r.backward = scaled(s_.times.backward_total, rc.compute_scale) * k;
    r.optimizer = scaled(s_.optimizer, rc.compute_scale);
    r.overhead = s_.step_overhead;
    r.exposed_comm = max(backward_end_[slowest], comm_end_) - backward_end_[slowest];
    if (!interference_.empty()) r.interference = interference_[slowest];
    r.bucket_copy = total(copy_in_) + copy_out_ + total(bucket_out_);
    r.launch = s_.overheads.launch * static_cast<std::int64_t>(buckets_.size());
    r.negotiation = s_.framework.horovod_negotiation * reducer_->cycles();
    // How much later the last gradients reach the collectives than the fastest class has them.
    r.sync_wait = *std::max_element(backward_end_.begin(), backward_end_.end()) -
                  *std::min_element(backward_end_.begin(), backward_end_.end());
    for (const std::vector<CollectivePart>& parts : parts_)
      for (const CollectivePart& part : parts) r.comm_busy += part.end - part.start;
    Time loader{0};
    for (const RankClass& c : classes_) loader = max(loader, c.loader);
    if (loader > Time{0})  // network threads share the loader's vCPUs while the collectives run
      loader += Time::from_seconds(r.comm_busy.seconds() * s_.loader_lost_while_comm);
    r.loader_wait = loader > end[slowest] ? loader - end[slowest] : Time{0};
    r.step = end[slowest] + r.loader_wait;
    if (timeline_) {
      const Time grads_done = max(backward_end_[0], reduced) + copy_out_;
      span(Stream::optimizer, "optimizer", grads_done, grads_done + scaled(s_.optimizer, classes_[0].compute_scale));
      if (loader > Time{0}) span(Stream::loader, "load next batches", Time{0}, loader);
      // The GPU idles until the next batch is ready (issue 11: the trace shows the loader wait).
      if (r.loader_wait > Time{0}) span(Stream::compute, "loader wait", end[slowest], r.step);
      for (std::size_t b = 0; b < buckets_.size(); ++b) {
        const BucketTiming& t = buckets_[b];
        for (std::size_t p = 0; p < parts_[b].size(); ++p) {
          const bool one = parts_[b].size() == 1;
          span(Stream::comm, "bucket " + std::to_string(b) + (one ? "" : " part " + std::to_string(p + 1)),
               parts_[b][p].start, parts_[b][p].end,
               {{"bytes", std::to_string(t.bytes.n)},
                {"bucket", std::to_string(b)},
                {"algorithm", std::string(t.algorithm->name())},
                {"protocol", t.protocol ? std::string(to_string(*t.protocol)) : "-"},
                {"channels", std::to_string(t.channels)}});
        }
      }
    }
    r.buckets = std::move(buckets_);
    return r;
  }

  void span(Stream stream, std::string name, Time start, Time end, std::vector<std::pair<std::string, std::string>> args = {})
  {
    timeline_->add(Span{0, 0, stream, "", std::move(name), start, end, std::move(args)});
  }

  const IterationSetup& s_;
  const ModelSpec& model_;
  Timeline* timeline_;
  std::vector<RankClass> classes_;
  Engine engine_;
  std::unique_ptr<GradientReducer> reducer_;
  std::vector<std::uint32_t> arrived_;  // classes that have produced each layer's gradients
  std::vector<Time> produced_at_;       // when every class has produced each layer's gradients
  std::vector<Time> bucket_produced_;   // per bucket: when its last gradient was produced (unslowed)
  std::vector<std::vector<CollectivePart>> parts_;  // per bucket, its collective's parts as run
  std::vector<Time> backward_start_;    // per class
  std::vector<Time> backward_end_;      // per class, with bucket copies and interference
  std::vector<Time> copy_in_;           // per layer, on the compute stream: DDP's copy into the bucket, casts
  Time copy_out_{0};                    // after the reductions: DDP's copies back into the gradients, casts back
  std::vector<Time> bucket_out_;        // per bucket, right after its collective: DDP's hook casting back
  std::vector<Time> interference_;      // per class
  std::vector<BucketTiming> buckets_;
  Time comm_end_{0};
};

}  // namespace

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline)
{
  DDPSIM_CHECK(setup.model && setup.network && setup.collective, "incomplete iteration setup");
  DDPSIM_CHECK(setup.accum_steps >= 1, "gradient accumulation needs at least one micro-step");
  const std::size_t nlayers = setup.model->layers.size();
  DDPSIM_CHECK(setup.times.forward.size() == nlayers && setup.times.backward.size() == nlayers,
               "layer times do not match the model");
  return IterationRun(setup, timeline).run();
}

}  // namespace ddpsim::sim
