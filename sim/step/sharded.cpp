#include "sim/step/sharded.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

ShardStage shard_stage(Framework f) { return traits(f).shard; }

algo::CollectiveOp gradient_op(Framework f)
{
  return shard_stage(f) == ShardStage::none ? algo::CollectiveOp::all_reduce : algo::CollectiveOp::reduce_scatter;
}

std::string_view to_string(When w)
{
  switch (w) {
    case When::forward: return "forward";
    case When::backward: return "backward";
    case When::after_step: return "after step";
  }
  return "?";
}

std::vector<ShardedJob> parameter_gathers(const ModelSpec& model, Framework f, int bytes_per_element, Bytes bucket)
{
  DDPSIM_CHECK(bytes_per_element > 0, "parameter element size must be positive");
  std::vector<ShardedJob> jobs;
  const ShardStage stage = shard_stage(f);
  const auto layer_bytes = [&](const Layer& l) {
    std::uint64_t n = 0;
    for (const Tensor& t : l.params) n += t.numel;
    return Bytes{n * static_cast<std::uint64_t>(bytes_per_element)};
  };
  if (stage == ShardStage::parameters) {
    // Forward in registration order, backward in reverse: one gather per layer with parameters.
    for (std::size_t i = 0; i < model.layers.size(); ++i)
      if (Bytes b = layer_bytes(model.layers[i]); b.n > 0) jobs.push_back({algo::CollectiveOp::all_gather, b, When::forward, i});
    for (std::size_t i = model.layers.size(); i-- > 0;)
      if (Bytes b = layer_bytes(model.layers[i]); b.n > 0) jobs.push_back({algo::CollectiveOp::all_gather, b, When::backward, i});
  } else if (stage != ShardStage::none) {
    // The updated parameters, gathered in buckets of at most `bucket` bytes.
    DDPSIM_CHECK(bucket.n > 0, "all-gather bucket must be positive");
    std::uint64_t left = 0;
    for (const Layer& l : model.layers) left += layer_bytes(l).n;
    while (left > 0) {
      const std::uint64_t b = std::min(left, bucket.n);
      jobs.push_back({algo::CollectiveOp::all_gather, Bytes{b}, When::after_step, 0});
      left -= b;
    }
  }
  return jobs;
}

}  // namespace ddpsim::sim
