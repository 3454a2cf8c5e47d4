#include "sim/study/whatifs/resilience.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/quantile.hpp"
#include "core/random.hpp"
#include "sim/study/scenario.hpp"
#include "sim/study/whatifs/make_whatif.hpp"

namespace ddpsim::sim {

Bytes checkpoint_bytes(std::uint64_t parameters, Precision precision, Optimizer optimizer)
{
  // Weights as trained (4 B in fp32/tf32, 2 B in fp16/bf16); under fp16/bf16 an fp32 master copy
  // (mixed-precision training keeps one: ZeRO, Rajbhandari et al. 2020, section 3.1: 2 + 2 + 12
  // bytes per parameter with the gradients, which a checkpoint does not hold). Optimizer states in
  // fp32: Adam's exp_avg and exp_avg_sq (8 B); SGD's momentum buffer (4 B; the recipes we ship
  // use momentum 0.9).
  const bool half = precision == Precision::fp16 || precision == Precision::bf16;
  const std::uint64_t weights = half ? 2 + 4 : 4;
  const std::uint64_t states = optimizer == Optimizer::adam ? 8 : 4;
  return Bytes{parameters * (weights + states)};
}

double young_interval(double delta_s, double mtbf_s) { return std::sqrt(2 * delta_s * mtbf_s); }

double daly_interval(double delta_s, double mtbf_s)
{
  if (delta_s >= 2 * mtbf_s) return mtbf_s;
  const double x = delta_s / (2 * mtbf_s);
  return std::sqrt(2 * delta_s * mtbf_s) * (1 + std::sqrt(x) / 3 + x / 9) - delta_s;
}

double expected_wall_time(double work_s, double tau_s, double delta_s, double restart_s, double mtbf_s)
{
  DDPSIM_CHECK(tau_s > 0 && mtbf_s > 0, "checkpoint interval and MTBF must be positive");
  // expm1 keeps precision when (tau + delta) << M (the common case: hours against days).
  return mtbf_s * std::exp(restart_s / mtbf_s) * std::expm1((tau_s + delta_s) / mtbf_s) * work_s / tau_s;
}

double storage_time(Bytes bytes, int clients, Bandwidth per_client, Bandwidth aggregate)
{
  double rate = per_client.bytes_per_s;
  if (aggregate.bytes_per_s > 0) rate = std::min(rate, aggregate.bytes_per_s / std::max(1, clients));
  DDPSIM_CHECK(rate > 0, "storage without bandwidth");
  return bytes.as_double() / rate;
}

namespace {

double one_run(const FailureProcess& p, SplitMix64& rng)
{
  const double seg = p.tau_s + p.delta_s;
  double t = 0, work = p.work_s;
  bool restarting = false;
  for (;;) {
    double f = rng.exponential(p.mtbf_s);  // memoryless: a fresh draw from every renewal point
    if (restarting) {
      if (f < p.restart_s) {  // failed again while restarting: start the restart over
        t += f;
        continue;
      }
      t += p.restart_s;
      f -= p.restart_s;
      restarting = false;
    }
    // Remaining work as full segments (tau of work + a checkpoint) and a last, shorter one.
    double full = std::floor(work / p.tau_s);
    double rest = work - full * p.tau_s;
    if (rest < 1e-9 * p.tau_s) rest = 0;
    const double needed = full * seg + (rest > 0 ? rest + p.delta_s : 0);
    if (f >= needed) return t + needed;
    const double done = std::min(std::floor(f / seg), full);  // checkpoints completed before the failure
    work -= done * p.tau_s;
    t += f;
    restarting = true;
  }
}
}  // namespace

std::vector<double> monte_carlo_wall_times(const FailureProcess& p, int trials, std::uint64_t seed)
{
  SplitMix64 rng{seed};
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(std::max(0, trials)));
  for (int i = 0; i < trials; ++i) out.push_back(one_run(p, rng));
  return out;
}

ResilienceResult evaluate_resilience(const ResilienceSpec& spec, std::uint64_t parameters, Precision precision,
                                     Optimizer optimizer, int nodes, int gpus_per_node, double work_s)
{
  const double node_mtbf = spec.node_mtbf_s > 0 ? spec.node_mtbf_s : spec.gpu_mtbf_s / std::max(1, gpus_per_node);
  DDPSIM_CHECK(node_mtbf > 0 && nodes > 0, "resilience without an MTBF or nodes");
  const CheckpointSpec& ck = spec.checkpoint;
  ResilienceResult r;
  r.storage = ck.storage.name;
  r.storage_survives = ck.storage.survives_node_loss;
  r.mtbf_source = spec.mtbf_source;
  r.work_s = work_s;
  r.node_mtbf_s = node_mtbf;
  r.job_mtbf_s = node_mtbf / nodes;
  const Bytes size = ck.size.value_or(checkpoint_bytes(parameters, precision, optimizer));
  r.checkpoint_bytes = size.n;
  // Writes: rank 0 alone writes everything, or every node writes its 1/N shard at once. Reads on
  // restart: every node loads the whole state (DDP replicates it), all at the same time.
  if (ck.writers == Writers::rank0)
    r.checkpoint_write_s = storage_time(size, 1, ck.storage.write_per_client, ck.storage.write_aggregate);
  else
    r.checkpoint_write_s = storage_time(Bytes{(size.n + static_cast<std::uint64_t>(nodes) - 1) / static_cast<std::uint64_t>(nodes)},
                                        nodes, ck.storage.write_per_client, ck.storage.write_aggregate);
  r.checkpoint_read_s = storage_time(size, nodes, ck.storage.read_per_client, ck.storage.read_aggregate);
  r.restart_s = spec.requeue.seconds() + spec.restart.seconds() + r.checkpoint_read_s;
  const double m = r.job_mtbf_s, delta = r.checkpoint_write_s;
  r.young_interval_s = young_interval(delta, m);
  r.daly_interval_s = daly_interval(delta, m);
  r.interval_s = ck.every ? ck.every->seconds() : r.daly_interval_s;
  if ((r.interval_s + delta) / m > 30 || r.restart_s / m > 30)
    throw UserError(SourceLocation{}, "resilience", "on " + std::to_string(nodes) + " nodes the job fails every " +
                    format_time(Time::from_seconds(m)) +
                    " on average, far less than a checkpoint interval plus its write or a restart: it would never finish");
  r.expected_time_s = expected_wall_time(work_s, r.interval_s, delta, r.restart_s, m);
  r.expected_failures = r.expected_time_s / m;
  r.checkpoint_overhead_s = work_s / r.interval_s * delta;
  r.lost_s = r.expected_time_s - work_s - r.checkpoint_overhead_s;
  r.efficiency = work_s / r.expected_time_s;
  if (spec.monte_carlo_trials > 0) {
    std::vector<double> t = monte_carlo_wall_times({work_s, r.interval_s, delta, r.restart_s, m},
                                                   spec.monte_carlo_trials, spec.seed);
    double sum = 0;
    for (double v : t) sum += v;
    std::sort(t.begin(), t.end());
    r.trials = spec.monte_carlo_trials;
    r.mc_mean_s = sum / static_cast<double>(t.size());
    r.mc_p10_s = quantile_sorted(t, 0.10);
    r.mc_p50_s = quantile_sorted(t, 0.50);
    r.mc_p90_s = quantile_sorted(t, 0.90);
  }
  return r;
}

namespace {

WhatIfResult run_resilience(const ResilienceSpec& rs, const WhatIfInput& in)
{
  const ConfigResult& r = in.result;
  const ScenarioSpec& spec = in.spec;
  // AMP checkpoints fp32 weights and the optimizer state, with no separate master copy.
  const Precision weights = spec.training.amp ? Precision::fp32 : spec.training.precision;
  ResilienceResult x = evaluate_resilience(rs, spec.model.parameter_count(), weights, spec.training.optimizer, r.nodes,
                                           in.gpus_per_node, r.total_time_s - r.startup_s);
  // Billed from start-up to the end, as the failure-free cost, plus every failure's lost time.
  x.expected_total_time_s = r.startup_s + x.expected_time_s;
  x.expected_cost_usd = r.price_usd_per_hour * r.nodes * x.expected_total_time_s / 3600.0;
  const WhatIfValue null{std::monostate{}};
  auto if_fits = [&](double v) { return r.fits ? WhatIfValue(v) : null; };
  // ResilienceResult's fields by name (resilience.hpp), the JSON's order.
  WhatIfResult out{"resilience",
                   {{"node_mtbf_s", x.node_mtbf_s}, {"mtbf_source", x.mtbf_source}, {"job_mtbf_s", x.job_mtbf_s},
                    {"storage", x.storage}, {"checkpoint_bytes", static_cast<std::int64_t>(x.checkpoint_bytes)},
                    {"checkpoint_write_s", x.checkpoint_write_s}, {"checkpoint_read_s", x.checkpoint_read_s},
                    {"restart_s", x.restart_s}, {"young_interval_s", x.young_interval_s},
                    {"daly_interval_s", x.daly_interval_s}, {"interval_s", x.interval_s}, {"work_s", x.work_s},
                    {"expected_time_s", if_fits(x.expected_time_s)},
                    {"expected_total_time_s", if_fits(x.expected_total_time_s)},
                    {"expected_failures", x.expected_failures}, {"checkpoint_overhead_s", x.checkpoint_overhead_s},
                    {"lost_s", x.lost_s}, {"efficiency", x.efficiency}, {"expected_cost_usd", if_fits(x.expected_cost_usd)},
                    {"storage_survives", x.storage_survives}, {"trials", std::int64_t{x.trials}}},
                   {}};
  if (x.trials > 0 && r.fits) {
    out.fields.push_back({"monte_carlo.trials", std::int64_t{x.trials}});
    for (const auto& [key, v] : {std::pair{"mean", x.mc_mean_s}, {"p10", x.mc_p10_s}, {"p50", x.mc_p50_s}, {"p90", x.mc_p90_s}})
      out.fields.push_back({"monte_carlo." + std::string(key) + "_s", v});
    for (const auto& [key, v] : {std::pair{"p10", x.mc_p10_s}, {"p50", x.mc_p50_s}, {"p90", x.mc_p90_s}})
      out.fields.push_back({"mc_" + std::string(key) + "_total_s", v + r.startup_s});
  }
  if (!x.storage_survives)
    out.warnings.push_back("checkpoints on " + x.storage +
                           " are lost with a failed node: the restart assumes a copy survives elsewhere");
  return out;
}

}  // namespace

std::shared_ptr<const WhatIf> resilience_whatif(const ResilienceSpec& spec)
{
  return make_whatif("resilience", WhatIf::Stage::after_run, spec, run_resilience);
}

}  // namespace ddpsim::sim
