#include "sim/step/reducers.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ddpsim::sim {
namespace {

// Compression casts 4-byte gradients to fp16 on the wire; 2-byte gradients stay as they are.
int wire_bytes(const FrameworkOptions& o) { return o.fp16_compress ? std::min(o.bytes_per_element, 2) : o.bytes_per_element; }

Bytes tensor_bytes(const ModelSpec& model, TensorRef t, int wire)
{
  return Bytes{model.layers[t.layer].params[t.tensor].numel * static_cast<std::uint64_t>(wire)};
}

class DdpReducer final : public GradientReducer {
 public:
  DdpReducer(const ModelSpec& model, const FrameworkOptions& o) : model_(model), o_(o), per_layer_(model.layers.size())
  {
    // DDP's Reducer sizes buckets by the gradients' own element size (the hook compresses a
    // bucket after it was formed), so buckets are formed at bytes_per_element and sent at `wire`.
    buckets_ = ddp_buckets(model, o.bytes_per_element, o.first_bucket_cap, o.bucket_cap);
    pending_.resize(buckets_.size());
    for (std::size_t b = 0; b < buckets_.size(); ++b)
      for (const TensorRef& t : buckets_[b].tensors) {
        per_layer_[t.layer].push_back(b);
        ++pending_[b];
      }
    left_ = buckets_.size();
  }

  void gradient_ready(Engine& engine, std::size_t layer) override
  {
    for (std::size_t b : per_layer_[layer]) --pending_[b];
    // The Reducer launches buckets strictly in order (reducer.cpp, mark_bucket_ready): a bucket
    // whose gradients are all ready waits for the ones before it (a model's grad_order can fill
    // a later bucket first).
    while (next_ < buckets_.size() && pending_[next_] == 0) bucket_ready(engine.now(), next_++);
  }

 private:
  void bucket_ready(Time now, std::size_t b)
  {
    CommJob j{std::move(buckets_[b].tensors), Bytes{0}, now};
    for (const TensorRef& t : j.tensors) j.bytes += tensor_bytes(model_, t, wire_bytes(o_));
    --left_;
    if (o_.framework != Framework::smddp || o_.smddp_fusion_threshold.n == 0) {
      released_.push_back(std::move(j));
    } else {
      // SMDDP's balanced fusion buffer: sent once it exceeds the threshold, or with the last bucket.
      buffer_.tensors.insert(buffer_.tensors.end(), j.tensors.begin(), j.tensors.end());
      buffer_.bytes += j.bytes;
      buffer_.ready = now;
      if (buffer_.bytes > o_.smddp_fusion_threshold || left_ == 0) {
        released_.push_back(std::move(buffer_));
        buffer_ = CommJob{};
      }
    }
    // find_unused_parameters: the used-parameter map's all-reduce, launched with the last bucket
    // (FrameworkOptions::find_unused_parameters). It carries no gradient: no tensors.
    // The Reducer's parameters are those that require a gradient (distributed.py _build_params_for_reducer).
    if (left_ == 0 && o_.find_unused_parameters)
      released_.push_back(CommJob{{}, Bytes{4 * static_cast<std::uint64_t>(model_.trainable_tensor_count())}, now});
  }

  const ModelSpec& model_;
  FrameworkOptions o_;
  std::vector<Bucket> buckets_;
  std::vector<std::vector<std::size_t>> per_layer_;  // buckets holding each layer's tensors (one entry per tensor)
  std::vector<std::size_t> pending_;                  // tensors each bucket still waits for
  std::size_t left_ = 0;
  std::size_t next_ = 0;  // the next bucket to launch
  CommJob buffer_;
};

class HorovodReducer final : public GradientReducer {
 public:
  HorovodReducer(const ModelSpec& model, const FrameworkOptions& o)
      : model_(model), wire_(wire_bytes(o)), threshold_(horovod_fusion_threshold(o)), cycle_(horovod_cycle_time(o)),
        negotiation_(o.horovod_negotiation)
  {
    DDPSIM_CHECK(cycle_ > Time{0} && threshold_.n > 0, "Horovod cycle time and fusion threshold must be positive");
    const Time phase = o.cycle_phase.value_or(Time{0});
    DDPSIM_CHECK(phase >= Time{0}, "Horovod cycle phase must not be negative");
    phase_ = Time{phase.ps % cycle_.ps};
  }

  void gradient_ready(Engine& engine, std::size_t layer) override
  {
    // Tensors enter the queue in the order their gradients become ready (within a layer, reverse
    // registration order, as DDP).
    for (std::size_t ti = model_.layers[layer].params.size(); ti-- > 0;) queue_.push_back({layer, ti});
    if (tick_scheduled_) return;
    tick_scheduled_ = true;
    // The first tick at or after now on the grid phase_ + k x cycle_ (k >= 0; phase_ < cycle_ <= now + cycle_).
    const Time from = engine.now() > phase_ ? engine.now() - phase_ : Time{0};
    const std::int64_t k = (from + cycle_ - Time{1}).ps / cycle_.ps;  // (checked)
    engine.at(phase_ + cycle_ * k, [this, &engine] { tick(engine.now()); }, /*late=*/1);
  }

 private:
  // One wake-up of the background thread: fuse what is queued, in order, into buffers.
  void tick(Time now)
  {
    tick_scheduled_ = false;
    CommJob current;
    for (const TensorRef& t : queue_) {
      const Bytes b = tensor_bytes(model_, t, wire_);
      if (!current.tensors.empty() && current.bytes + b > threshold_) {
        released_.push_back(std::move(current));
        current = CommJob{};
      }
      current.tensors.push_back(t);
      current.bytes += b;
      current.ready = now + negotiation_;  // the ranks agree on what is ready before launching
    }
    if (!queue_.empty()) ++cycles_;
    if (!current.tensors.empty()) released_.push_back(std::move(current));
    queue_.clear();
  }

  const ModelSpec& model_;
  int wire_;
  Bytes threshold_;
  Time cycle_;
  Time phase_{0};
  Time negotiation_;
  std::vector<TensorRef> queue_;
  bool tick_scheduled_ = false;
};

}  // namespace

std::unique_ptr<GradientReducer> make_reducer(const ModelSpec& model, const FrameworkOptions& options)
{
  DDPSIM_CHECK(options.bytes_per_element > 0, "gradient element size must be positive");
  if (traits(options.framework).path == GradientPath::horovod_fusion) return std::make_unique<HorovodReducer>(model, options);
  return std::make_unique<DdpReducer>(model, options);
}

std::vector<CommJob> plan_communication(const ModelSpec& model, const std::vector<Time>& grad_ready,
                                        const FrameworkOptions& options)
{
  DDPSIM_CHECK(grad_ready.size() == model.layers.size(), "gradient ready times do not match the model");
  Engine engine;
  std::unique_ptr<GradientReducer> reducer = make_reducer(model, options);
  // Gradients become ready in reverse registration order (backward), each at its own time.
  for (std::size_t li = model.layers.size(); li-- > 0;)
    engine.at(grad_ready[li], [&, li] { reducer->gradient_ready(engine, li); });
  engine.run();
  return reducer->released();
}

}  // namespace ddpsim::sim
