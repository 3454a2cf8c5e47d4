#include "sim/step/frameworks.hpp"

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
    // Sharded data parallel (sharded.hpp): NCCL reduce-scatter / all-gather, NCCL's choice.
    {Framework::zero1, "zero-1", "nccl", ""},
    {Framework::zero2, "zero-2", "nccl", ""},
    {Framework::zero3, "zero-3", "nccl", ""},
    {Framework::fsdp, "fsdp", "nccl", ""},
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

}  // namespace ddpsim::sim
