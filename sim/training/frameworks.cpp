#include "sim/training/frameworks.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {
namespace {

struct FrameworkInfo {
  Framework f;
  std::string_view name, backend, algorithm;
};

// Names as users write them in training.framework.
constexpr FrameworkInfo kFrameworks[] = {
    {Framework::pytorch_ddp, "pytorch-ddp", "nccl", ""},
    {Framework::lightning, "lightning", "nccl", ""},
    {Framework::horovod, "horovod", "nccl", ""},
    {Framework::smddp, "smddp", "smddp", "herring"},
    {Framework::parameter_server, "parameter-server", "ps", "parameter-server"},
    {Framework::gloo, "gloo", "gloo", ""},
    // Sharded data parallel (sharded.hpp): NCCL's ReduceScatter/AllGather run as rings.
    {Framework::zero1, "zero-1", "nccl", "ring"},
    {Framework::zero2, "zero-2", "nccl", "ring"},
    {Framework::zero3, "zero-3", "nccl", "ring"},
    {Framework::fsdp, "fsdp", "nccl", "ring"},
};

const FrameworkInfo& info(Framework f)
{
  for (const FrameworkInfo& i : kFrameworks)
    if (i.f == f) return i;
  DDPSIM_CHECK(false, "unknown framework");
  return kFrameworks[0];
}

}  // namespace

std::string_view to_string(Framework f) { return info(f).name; }
std::string_view backend_of(Framework f) { return info(f).backend; }
std::string_view forced_algorithm(Framework f) { return info(f).algorithm; }

std::vector<std::string> framework_names()
{
  std::vector<std::string> out;
  for (const FrameworkInfo& i : kFrameworks) out.emplace_back(i.name);
  return out;
}

std::optional<Framework> parse_framework(std::string_view name)
{
  for (const FrameworkInfo& i : kFrameworks)
    if (i.name == name) return i.f;
  return std::nullopt;
}

Bytes horovod_fusion_threshold(const FrameworkOptions& o)
{
  if (o.fusion_threshold) return *o.fusion_threshold;
  return Bytes{(o.horovod == HorovodDefaults::pre_2020 ? 64 : 128) * MiB};
}

Time horovod_cycle_time(const FrameworkOptions& o)
{
  if (o.cycle_time) return *o.cycle_time;
  return Time::from_us(o.horovod == HorovodDefaults::pre_2020 ? 5000 : 1000);
}

std::vector<CommJob> plan_communication(const ModelSpec& model, const std::vector<Time>& grad_ready,
                                        const FrameworkOptions& o)
{
  DDPSIM_CHECK(grad_ready.size() == model.layers.size(), "gradient ready times do not match the model");
  DDPSIM_CHECK(o.bytes_per_element > 0, "gradient element size must be positive");
  // Compression casts 4-byte gradients to fp16 on the wire; 2-byte gradients stay as they are.
  const int wire = o.fp16_compress ? std::min(o.bytes_per_element, 2) : o.bytes_per_element;
  if (o.framework == Framework::horovod)
    return horovod_fusion(model, grad_ready, wire, horovod_fusion_threshold(o), horovod_cycle_time(o));

  // DDP's Reducer sizes buckets by the gradients' own element size (the hook compresses a bucket
  // after it was formed), so buckets are formed at bytes_per_element and sent at `wire`.
  std::vector<CommJob> jobs;
  for (Bucket& b : ddp_buckets(model, o.bytes_per_element, o.first_bucket_cap, o.bucket_cap)) {
    CommJob j;
    for (const TensorRef& t : b.tensors) {
      j.ready = max(j.ready, grad_ready[t.layer]);
      j.bytes += Bytes{model.layers[t.layer].params[t.tensor].numel * static_cast<std::uint64_t>(wire)};
    }
    j.tensors = std::move(b.tensors);
    jobs.push_back(std::move(j));
  }
  if (o.framework == Framework::smddp && o.smddp_fusion_threshold.n > 0) {
    // The fusion buffer takes buckets in order and is sent once it exceeds the threshold.
    std::vector<CommJob> fused;
    CommJob buffer;
    for (CommJob& j : jobs) {
      buffer.tensors.insert(buffer.tensors.end(), j.tensors.begin(), j.tensors.end());
      buffer.bytes += j.bytes;
      buffer.ready = max(buffer.ready, j.ready);
      if (buffer.bytes > o.smddp_fusion_threshold) {
        fused.push_back(std::move(buffer));
        buffer = CommJob{};
      }
    }
    if (!buffer.tensors.empty()) fused.push_back(std::move(buffer));
    return fused;
  }
  return jobs;
}

}  // namespace ddpsim::sim
