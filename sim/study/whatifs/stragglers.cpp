#include "sim/study/whatifs/stragglers.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/quantile.hpp"
#include "core/random.hpp"
#include "sim/step/iteration.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/whatifs/make_whatif.hpp"

namespace ddpsim::sim {

StragglerResult simulate_stragglers(const NominalStep& nominal, int ranks, int gpus_per_node, const StragglerSpec& spec)
{
  DDPSIM_CHECK(ranks >= 1 && gpus_per_node >= 1 && spec.steps >= 1, "stragglers: ranks, gpus_per_node, steps");
  DDPSIM_CHECK(nominal.bucket_ready.size() == nominal.bucket_duration.size(), "stragglers: bucket lists differ");
  const std::size_t nb = nominal.bucket_ready.size(), nr = static_cast<std::size_t>(ranks);
  SplitMix64 rng{spec.seed};

  // Constant per-rank factors and loader periods (seconds).
  std::vector<double> fixed(nr, 1.0), loader(nr, nominal.loader.seconds());
  for (const auto& [node, f] : spec.node_factor)
    for (int g = 0; g < gpus_per_node; ++g)
      if (const std::size_t r = static_cast<std::size_t>(node * gpus_per_node + g); r < nr) fixed[r] *= f;
  for (const auto& [rank, f] : spec.rank_factor)
    if (rank >= 0 && static_cast<std::size_t>(rank) < nr) fixed[static_cast<std::size_t>(rank)] *= f;
  for (const auto& [node, f] : spec.node_loader)
    for (int g = 0; g < gpus_per_node; ++g)
      if (const std::size_t r = static_cast<std::size_t>(node * gpus_per_node + g); r < nr) loader[r] *= f;
  if (spec.clock_sigma > 0)
    for (double& f : fixed) f *= std::exp(spec.clock_sigma * rng.normal());

  std::vector<double> offset(nb), duration(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    offset[b] = nominal.bucket_ready[b].seconds();
    duration[b] = nominal.bucket_duration[b].seconds();
  }
  const double compute = nominal.compute.seconds(), opt = nominal.optimizer.seconds(), over = nominal.overhead.seconds();

  // Nominal step (every factor 1, loader as given): the same recurrence for one rank.
  auto one_step = [&](double f, double start, std::vector<double>& ready) {
    for (std::size_t b = 0; b < nb; ++b) ready[b] = start + f * offset[b];
  };
  double nominal_end = 0;
  {
    std::vector<double> ready(nb);
    one_step(1.0, 0.0, ready);
    double free = 0;
    for (std::size_t b = 0; b < nb; ++b) free = std::max(free, ready[b]) + duration[b];
    nominal_end = std::max(std::max(compute, free) + opt + over, nominal.loader.seconds());
  }

  StragglerResult out;
  out.ranks = ranks;
  out.steps = spec.steps;
  out.nominal_step_s = nominal_end;
  std::vector<double> start(nr, 0.0), end(nr, 0.0), f(nr), ready(nb);
  double prev_last_end = 0, wait_sum = 0;
  for (int s = 0; s < spec.steps; ++s) {
    for (std::size_t r = 0; r < nr; ++r) {
      f[r] = fixed[r];
      // Mean-one lognormal: exp(sigma z - sigma^2 / 2).
      if (spec.jitter_sigma > 0) f[r] *= std::exp(spec.jitter_sigma * rng.normal() - spec.jitter_sigma * spec.jitter_sigma / 2);
      // The loader prefetches one batch per period from time 0 (the first is ready at the start);
      // a rank starts step s when its batch s is there.
      start[r] = std::max(end[r], static_cast<double>(s) * loader[r]);
    }
    // ready_b = max over ranks: the O(ranks x buckets) core.
    std::fill(ready.begin(), ready.end(), 0.0);
    for (std::size_t r = 0; r < nr; ++r)
      for (std::size_t b = 0; b < nb; ++b) ready[b] = std::max(ready[b], start[r] + f[r] * offset[b]);
    double free = 0;
    for (std::size_t b = 0; b < nb; ++b) free = std::max(free, ready[b]) + duration[b];
    double last_end = 0;
    for (std::size_t r = 0; r < nr; ++r) {
      if (nb > 0) {
        const double w = ready[nb - 1] - (start[r] + f[r] * offset[nb - 1]);
        wait_sum += w;
        out.sync_wait_max_s = std::max(out.sync_wait_max_s, w);
      }
      end[r] = std::max(start[r] + f[r] * compute, nb > 0 ? free : 0.0) + f[r] * opt + over;
      last_end = std::max(last_end, end[r]);
    }
    out.step_s.push_back(last_end - prev_last_end);
    prev_last_end = last_end;
  }
  double sum = 0;
  for (double v : out.step_s) sum += v;
  out.step_mean_s = sum / spec.steps;
  out.step_p50_s = quantile(out.step_s, 0.50);
  out.step_p99_s = quantile(out.step_s, 0.99);
  out.slowdown = out.step_mean_s / nominal_end;
  out.sync_wait_mean_s = nb > 0 ? wait_sum / (static_cast<double>(nr) * spec.steps) : 0;
  return out;
}

NominalStep nominal_step(const IterationResult& it, Time loader)
{
  NominalStep n;
  // Issue 9: DDP's copies into buckets and the interference lengthen backward; the copies out
  // of the buckets (the other half of bucket_copy) come before the optimizer.
  const Time copy_out{it.bucket_copy.ps / 2};
  n.compute = it.forward + it.backward + it.interference + (it.bucket_copy - copy_out);
  // Each collective starts its launch cost after its gradients are ready (issue 9).
  const Time launch{it.buckets.empty() ? 0 : it.launch.ps / static_cast<std::int64_t>(it.buckets.size())};
  for (const BucketTiming& b : it.buckets) {
    n.bucket_ready.push_back(b.ready + launch);
    n.bucket_duration.push_back(b.end - b.start);
  }
  n.optimizer = it.optimizer;
  n.overhead = it.overhead + copy_out;
  n.loader = loader;
  return n;
}

namespace {

WhatIfResult run_stragglers(const StragglerSpec& spec, const WhatIfInput& in)
{
  const ConfigResult& r = in.result;
  const StragglerResult x = simulate_stragglers(nominal_step(*in.step, in.loader), r.gpus, in.gpus_per_node, spec);
  return {"stragglers",
          {{"ranks", std::int64_t{x.ranks}},
           {"steps_simulated", std::int64_t{x.steps}},
           {"nominal_step_s", x.nominal_step_s},
           {"step_s", x.step_s},
           {"step_mean_s", x.step_mean_s},
           {"step_p50_s", x.step_p50_s},
           {"step_p99_s", x.step_p99_s},
           {"slowdown", x.slowdown},
           {"sync_wait_mean_s", x.sync_wait_mean_s},
           {"sync_wait_max_s", x.sync_wait_max_s},
           {"total_time_s", r.startup_s + x.step_mean_s * static_cast<double>(r.steps)}}};
}

}  // namespace

std::shared_ptr<const WhatIf> stragglers_whatif(const StragglerSpec& spec)
{
  return make_whatif("stragglers", WhatIf::Stage::with_step, spec, run_stragglers);
}

}  // namespace ddpsim::sim
