#include "sim/step/frameworks.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {
namespace {

using P = GradientPath;
using S = ShardStage;

// Names as users write them in training.framework.
constexpr FrameworkTraits kFrameworks[] = {
    // id                         name                backend  forced algorithm    path               shard          host   compiler
    {Framework::pytorch_ddp,      "pytorch-ddp",      "nccl",  "",                 P::ddp_buckets,    S::none,       false, true},
    {Framework::lightning,        "lightning",        "nccl",  "",                 P::ddp_buckets,    S::none,       false, true},
    {Framework::horovod,          "horovod",          "nccl",  "",                 P::horovod_fusion, S::none,       false, false},
    {Framework::smddp,            "smddp",            "smddp", "herring",          P::ddp_buckets,    S::none,       true,  false},
    {Framework::parameter_server, "parameter-server", "ps",    "parameter-server", P::ddp_buckets,    S::none,       true,  false},
    {Framework::gloo,             "gloo",             "gloo",  "",                 P::ddp_buckets,    S::none,       false, false},
    // NVIDIA apex's DistributedDataParallel (apex/parallel/distributed.py): buckets of at least
    // message_size elements, no small first bucket, flattened and copied back around the
    // collective (run_config, overhead_setup.cpp). NVIDIA's BERT pretraining script runs it.
    {Framework::apex_ddp,         "apex-ddp",         "nccl",  "",                 P::ddp_buckets,    S::none,       false, false},
    // Sharded data parallel (sharded.hpp): NCCL reduce-scatter / all-gather, NCCL's choice.
    {Framework::zero1,            "zero-1",           "nccl",  "",                 P::sharded,        S::optimizer,  false, false},
    {Framework::zero2,            "zero-2",           "nccl",  "",                 P::sharded,        S::gradients,  false, false},
    {Framework::zero3,            "zero-3",           "nccl",  "",                 P::sharded,        S::parameters, false, false},
    {Framework::fsdp,             "fsdp",             "nccl",  "",                 P::sharded,        S::parameters, false, false},
};

}  // namespace

const FrameworkTraits& traits(Framework f)
{
  for (const FrameworkTraits& i : kFrameworks)
    if (i.id == f) return i;
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
    if (i.name == name) return i.id;
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
