#include "sim/step/sharded.hpp"

#include <map>

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

namespace {

// One pass (forward or backward) with its gathers prefetched on their own stream: returns the
// pass's length and the gathers' busy time. `order` lists the layers in execution order.
std::pair<Time, Time> pass_with_gathers(const std::vector<ShardedJob>& gathers, const std::vector<Time>& layer_time,
                                        const std::vector<std::size_t>& order, NetworkBackend& network,
                                        const std::function<algo::CoarseSchedule(algo::CollectiveOp, Bytes)>& collective)
{
  std::vector<CollectiveJob> jobs;
  for (const ShardedJob& g : gathers)
    jobs.push_back(CollectiveJob{Time{0}, 0, collective(g.op, g.bytes), "gather layer " + std::to_string(g.layer)});
  const std::vector<JobTiming> timings = network.run(jobs);
  DDPSIM_CHECK(timings.size() == jobs.size(), "network backend lost jobs");
  std::vector<Time> gathered(layer_time.size(), Time{0});
  Time busy{0};
  for (std::size_t j = 0; j < gathers.size(); ++j) {
    gathered[gathers[j].layer] = timings[j].end;
    busy += timings[j].end - timings[j].start;
  }
  Time t{0};
  for (std::size_t i : order) t = max(t, gathered[i]) + layer_time[i];
  return {t, busy};
}

}  // namespace

GatherCost price_gathers(const std::vector<ShardedJob>& jobs, const LayerTimes& times, int accum_steps,
                         NetworkBackend& network,
                         const std::function<algo::CoarseSchedule(algo::CollectiveOp, Bytes)>& collective)
{
  GatherCost cost;
  if (jobs.empty()) return cost;
  // Layers of one shape gather the same bytes: build each (op, bytes) schedule once.
  std::map<std::pair<int, std::uint64_t>, algo::CoarseSchedule> memo;
  const auto cached = [&](algo::CollectiveOp op, Bytes bytes) {
    auto [it, fresh] = memo.try_emplace({static_cast<int>(op), bytes.n});
    if (fresh) it->second = collective(op, bytes);
    return it->second;
  };
  const std::size_t n = times.forward.size();
  std::vector<ShardedJob> fwd, bwd, after;
  for (const ShardedJob& j : jobs)
    (j.when == When::forward ? fwd : j.when == When::backward ? bwd : after).push_back(j);
  std::vector<std::size_t> forward_order(n), backward_order(n);
  for (std::size_t i = 0; i < n; ++i) forward_order[i] = i, backward_order[i] = n - 1 - i;
  const std::int64_t k = accum_steps;
  if (!fwd.empty()) {
    const auto [len, busy] = pass_with_gathers(fwd, times.forward, forward_order, network, cached);
    cost.busy += busy * k;
    cost.exposed += (len - times.forward_total) * k;
  }
  if (!bwd.empty()) {
    const auto [len, busy] = pass_with_gathers(bwd, times.backward, backward_order, network, cached);
    cost.busy += busy * k;
    cost.exposed += (len - times.backward_total) * k;
  }
  if (!after.empty()) {
    std::vector<CollectiveJob> cj;
    for (const ShardedJob& g : after) cj.push_back(CollectiveJob{Time{0}, 0, cached(g.op, g.bytes), "gather params"});
    Time end{0};
    for (const JobTiming& t : network.run(cj)) {
      cost.busy += t.end - t.start;
      end = max(end, t.end);
    }
    cost.exposed += end;
  }
  return cost;
}

}  // namespace ddpsim::sim
