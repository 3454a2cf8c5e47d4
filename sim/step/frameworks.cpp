#include "sim/step/frameworks.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {
namespace {

using R = ReducerKind;
using S = ShardStage;

// One row per framework (sources in frameworks.hpp and docs/model.md):
//   name, backend, forced algorithm, reducer, shard stage, bucket copies, Lightning overhead, host ring.
constexpr FrameworkTraits kFrameworks[] = {
    {Framework::pytorch_ddp, "pytorch-ddp", "nccl", "", R::ddp_buckets, S::none, true, false, false},
    {Framework::lightning, "lightning", "nccl", "", R::ddp_buckets, S::none, true, true, false},
    {Framework::horovod, "horovod", "nccl", "", R::horovod_cycle, S::none, false, false, false},
    {Framework::smddp, "smddp", "smddp", "herring", R::smddp_fusion, S::none, true, false, false},
    {Framework::parameter_server, "parameter-server", "ps", "parameter-server", R::ddp_buckets, S::none, true, false, false},
    {Framework::gloo, "gloo", "gloo", "", R::ddp_buckets, S::none, true, false, true},
    // Sharded data parallel (sharded.hpp): NCCL reduce-scatter / all-gather, NCCL's choice.
    {Framework::zero1, "zero-1", "nccl", "", R::ddp_buckets, S::optimizer, false, false, false},
    {Framework::zero2, "zero-2", "nccl", "", R::ddp_buckets, S::gradients, false, false, false},
    {Framework::zero3, "zero-3", "nccl", "", R::ddp_buckets, S::parameters, false, false, false},
    {Framework::fsdp, "fsdp", "nccl", "", R::ddp_buckets, S::parameters, false, false, false},
};

}  // namespace

const FrameworkTraits& traits(Framework f)
{
  for (const FrameworkTraits& i : kFrameworks)
    if (i.f == f) return i;
  DDPSIM_CHECK(false, "unknown framework");
  return kFrameworks[0];
}

std::string_view to_string(Framework f) { return traits(f).name; }
std::string_view backend_of(Framework f) { return traits(f).backend; }
std::string_view forced_algorithm(Framework f) { return traits(f).algorithm; }

std::vector<std::string> framework_names()
{
  std::vector<std::string> out;
  for (const FrameworkTraits& i : kFrameworks) out.emplace_back(i.name);
  return out;
}

std::optional<Framework> parse_framework(std::string_view name)
{
  for (const FrameworkTraits& i : kFrameworks)
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
