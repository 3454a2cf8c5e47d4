#include "sim/study/stragglers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/quantile.hpp"
#include "core/random.hpp"

namespace ddpsim::sim {
namespace {

// Ranks with the same factor and start time, as one rank class each; class_of[r] is rank r's.
std::vector<RankClass> fold(const std::vector<double>& f, const std::vector<Time>& start, Time origin,
                            std::vector<std::size_t>& class_of)
{
  std::vector<RankClass> classes;
  std::map<std::pair<std::uint64_t, std::int64_t>, std::size_t> index;
  for (std::size_t r = 0; r < f.size(); ++r) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &f[r], sizeof bits);
    const auto [it, fresh] = index.try_emplace({bits, (start[r] - origin).ps}, classes.size());
    if (fresh) classes.push_back(RankClass{0, f[r], Time{0}, start[r] - origin});
    ++classes[it->second].ranks;
    class_of[r] = it->second;
  }
  return classes;
}

}  // namespace

StragglerResult simulate_stragglers(const IterationSetup& setup, const IterationResult& nominal, int ranks,
                                    int gpus_per_node, const StragglerSpec& spec)
{
  DDPSIM_CHECK(ranks >= 1 && gpus_per_node >= 1 && spec.steps >= 1, "stragglers: ranks, gpus_per_node, steps");
  const std::size_t nr = static_cast<std::size_t>(ranks);
  SplitMix64 rng{spec.seed};

  // Constant per-rank factors and loader periods.
  std::vector<double> fixed(nr, 1.0), loader_scale(nr, 1.0);
  for (const auto& [node, f] : spec.node_factor)
    for (int g = 0; g < gpus_per_node; ++g)
      if (const std::size_t r = static_cast<std::size_t>(node * gpus_per_node + g); r < nr) fixed[r] *= f;
  for (const auto& [rank, f] : spec.rank_factor)
    if (rank >= 0 && static_cast<std::size_t>(rank) < nr) fixed[static_cast<std::size_t>(rank)] *= f;
  for (const auto& [node, f] : spec.node_loader)
    for (int g = 0; g < gpus_per_node; ++g)
      if (const std::size_t r = static_cast<std::size_t>(node * gpus_per_node + g); r < nr) loader_scale[r] *= f;
  if (spec.clock_sigma > 0)
    for (double& f : fixed) f *= std::exp(spec.clock_sigma * rng.normal());
  const Time loader = setup.classes.empty() ? setup.loader : setup.classes.front().loader;

  StragglerResult out;
  out.ranks = ranks;
  out.steps = spec.steps;
  out.nominal_step_s = nominal.step.seconds();
  IterationSetup step = setup;
  step.loader = Time{0};  // each rank's batches gate its start instead
  std::vector<Time> start(nr), end(nr);
  std::vector<double> f(nr);
  std::vector<std::size_t> class_of(nr);
  Time prev_last_end{0};
  double wait_sum = 0;
  for (int s = 0; s < spec.steps; ++s) {
    for (std::size_t r = 0; r < nr; ++r) {
      f[r] = fixed[r];
      // Mean-one lognormal: exp(sigma z - sigma^2 / 2).
      if (spec.jitter_sigma > 0) f[r] *= std::exp(spec.jitter_sigma * rng.normal() - spec.jitter_sigma * spec.jitter_sigma / 2);
      // The loader prefetches one batch per period from time 0 (the first is ready at the start);
      // a rank starts step s when its batch s is there.
      const Time batch{std::llround(static_cast<double>(loader.ps) * loader_scale[r] * s)};
      start[r] = max(end[r], batch);
    }
    const Time origin = *std::min_element(start.begin(), start.end());
    step.classes = fold(f, start, origin, class_of);
    const IterationResult it = simulate_iteration(step, nullptr);
    Time last_end{0};
    for (std::size_t r = 0; r < nr; ++r) {
      const std::size_t c = class_of[r];
      if (!it.buckets.empty()) {
        // How long the rank's last gradients waited for the slowest rank's.
        const double w = std::max(0.0, (it.last_release - it.class_gradients[c]).seconds());
        wait_sum += w;
        out.sync_wait_max_s = std::max(out.sync_wait_max_s, w);
      }
      end[r] = origin + it.class_end[c];
      last_end = max(last_end, end[r]);
    }
    out.step_s.push_back((last_end - prev_last_end).seconds());
    prev_last_end = last_end;
  }
  double sum = 0;
  for (double v : out.step_s) sum += v;
  out.step_mean_s = sum / spec.steps;
  out.step_p50_s = quantile(out.step_s, 0.50);
  out.step_p99_s = quantile(out.step_s, 0.99);
  out.slowdown = out.step_mean_s / out.nominal_step_s;
  out.sync_wait_mean_s = nominal.buckets.empty() ? 0 : wait_sum / (static_cast<double>(nr) * spec.steps);
  return out;
}

}  // namespace ddpsim::sim
