#include "sim/study/twin.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/error.hpp"
#include "core/text.hpp"
#include "sim/network/shape_cache.hpp"  // issue 21
#include "sim/study/knobs.hpp"
#include "sim/study/model_error.hpp"
#include "sim/study/uncertainty.hpp"
#include "sim/step/loader.hpp"
#include "sim/step/traced.hpp"

namespace ddpsim::sim {
namespace {

bool has_knob(const Uncertainty& u, const std::string& knob)
{
  for (const Dimension& d : u.dims)
    if (d.knob == knob) return true;
  return false;
}

// The spread of a profile's multi-node residuals (model_error.hpp), as a normal perturbation of
// every collective across nodes. Nothing when fewer than two multi-node points.
void add_profile_spread(const Profile& prof, Uncertainty& u, std::vector<std::string>& notes)
{
  if (has_knob(u, "network_efficiency") || has_knob(u, "network_scale")) return;
  const ResidualSpread s = profile_residual_spread(prof);
  if (s.rows < 2) return;
  Dimension d;
  d.knob = "network_scale";  // residuals are of whole collectives: the whole time, not the bandwidth alone
  d.source = kProfileResidualsSource;
  d.center = std::log(prof.network.time_scale);
  push_normal(u, d, s.ln_sd * s.ln_sd);
  notes.push_back("interval: every collective across nodes x exp(N(0, " + fmt("%.3f", s.ln_sd) + ")) from " +
                  std::to_string(s.rows) + (s.held_out ? " held-out" : " in-sample") +
                  " profile residuals" + (s.held_out ? " (each row predicted by the fit without it)" : ""));
  // Below the sizes it measured, a profile without a fitted latency prices with the catalog's: there
  // the catalog price's error is drawn instead (knob network_scale_below; profile.hpp).
  if (const std::uint64_t below = unfitted_latency_below(prof); below > 0) {
    Dimension b;
    b.knob = "network_scale_below";
    b.source = kNetworkPriceSource;
    b.center = d.center;
    push_normal(u, b, network_price_ln_sd() * network_price_ln_sd());
    notes.push_back("interval: the profile's rows across nodes start at " + format_bytes(Bytes{below}) +
                    " (none below 1 MiB: its latency was not fitted); collectives below that size are priced with the "
                    "catalog's latency and draw the catalog price's measured error instead, x exp(N(0, " +
                    fmt("%.3f", network_price_ln_sd()) + ")) (docs/validation.md \"The network price's own error\"); "
                    "fit a log that starts at 8 B (nccl-tests -b 8)");
  }
}

// Issue 19: a traced model's notes, and on another GPU than the trace's the scaling and its interval.
void add_traced(const ScenarioSpec& spec, Uncertainty& u, std::vector<std::string>& notes)
{
  const TracedModel* t = spec.model.traced.get();
  if (!t) return;
  notes.insert(notes.end(), t->notes.begin(), t->notes.end());
  const GpuRatio g = gpu_ratio(*t, spec.cluster.instance.gpu, spec.training.precision);
  if (!g.scaled) return;
  const double f = traced_compute_factor(*t, g.point);
  const double lo = traced_compute_factor(*t, g.low) / f, hi = traced_compute_factor(*t, g.high) / f;
  if (!has_knob(u, "compute_scale")) u.dims.push_back(assumed_range("compute_scale", 1.0, lo, hi));
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "model.trace: compute scaled from %s to %s: kernel time x %.3f (peak FLOP/s ratio %.3f, HBM ratio %.3f; "
                "host time kept); the interval spans both ratios (compute x %.3f-%.3f), wider than a same-GPU prediction",
                t->gpu->name.c_str(), spec.cluster.instance.gpu.name.c_str(), g.point, g.flops, g.hbm, lo, hi);
  notes.emplace_back(buf);
}

// Issue 20: the job profile's fitted and held-back rows, marked on the report's rows.
void mark_fit_roles(const JobProfile& p, ScenarioReport& report)
{
  for (ConfigResult& r : report.results)
    for (const JobProfile::Role& role : p.roles)
      if (role.nodes == r.nodes && role.framework == r.framework && r.compiler.empty()) r.fit_role = role.role;
}


}  // namespace

std::vector<std::string> apply_job_profile(const JobProfile& p, ScenarioSpec& spec, Uncertainty& u)
{
  std::vector<std::string> notes;
  const std::string name = std::filesystem::path(p.file).filename().string();
  const JobContext target = context_of(spec);
  std::vector<Eigen::Index> used;
  for (std::size_t k = 0; k < p.knobs.size(); ++k) {
    const std::string why = why_not_transferable(p.knobs[k], p.context, target);
    if (!why.empty()) {
      notes.push_back("warning: calibration " + name + ": " + p.knobs[k] + " not applied: " + why);
      continue;
    }
    apply(p.knobs[k], spec, p.values[k]);
    used.push_back(static_cast<Eigen::Index>(k));
    Dimension d;
    d.knob = p.knobs[k];
    d.source = "calibration " + name;
    d.center = std::log(p.values[k]);
    u.dims.push_back(d);
  }
  // The normal dimensions come first in `u`; this adds the applied knobs' block.
  const Eigen::Index old = u.cov.rows(), add = static_cast<Eigen::Index>(used.size());
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(old + add, old + add);
  if (old > 0) cov.topLeftCorner(old, old) = u.cov;
  for (Eigen::Index a = 0; a < add; ++a)
    for (Eigen::Index b = 0; b < add; ++b)
      cov(old + a, old + b) = p.cov_log(used[static_cast<std::size_t>(a)], used[static_cast<std::size_t>(b)]);
  u.cov = cov;
  if (p.model_error_ln_sd > 0 && !used.empty()) {  // issue 18 item 4
    u.model_error_ln_sd = p.model_error_ln_sd;
    char buf[160];
    std::snprintf(buf, sizeof buf, "interval: model error x exp(N(0, %.3g)) from the fit's leave-one-out errors", p.model_error_ln_sd);
    notes.emplace_back(buf);
  }
  if (p.extrapolation_ln_sd > 0 && p.extrapolation_beyond_nodes > 0 && !used.empty()) {  // beyond the fitted nodes
    u.extrapolation_ln_sd = p.extrapolation_ln_sd;
    u.extrapolation_beyond_nodes = p.extrapolation_beyond_nodes;
    char buf[200];
    std::snprintf(buf, sizeof buf, "interval: beyond %d node(s) the model error grows by %.3g in ln per doubling of nodes (forward fits)",
                  p.extrapolation_beyond_nodes, p.extrapolation_ln_sd);
    notes.emplace_back(buf);
  }
  if (!p.alternative_without.empty() && used.size() == p.knobs.size()) {  // issue 18 item 4
    u.replaces = p.knobs;
    std::string what;
    for (std::size_t k = 0; k < p.alternative_knobs.size(); ++k) {
      u.alternative.emplace_back(p.alternative_knobs[k], p.alternative_values[k]);
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s%s %.4g", what.empty() ? "" : ", ", p.alternative_knobs[k].c_str(), p.alternative_values[k]);
      what += buf;
    }
    std::string without;
    for (const std::string& k : p.alternative_without) without += (without.empty() ? "" : ", ") + k;
    notes.push_back("interval: spans the fit without " + without + " (implausible, see the profile's warnings): " +
                    (what.empty() ? "the scenario as written" : what));
  }
  if (!used.empty())
    notes.push_back("calibration " + name + ": applied " + std::to_string(used.size()) + " of " +
                    std::to_string(p.knobs.size()) + " fitted knob(s)");
  return notes;
}

std::string calibration_name(const ScenarioSpec& spec)
{
  return spec.job_profile ? std::filesystem::path(spec.job_profile->file).filename().string() : "";
}

std::vector<std::string> applied_knobs(const ScenarioSpec& spec)
{
  std::vector<std::string> out;
  if (!spec.job_profile) return out;
  const JobContext target = context_of(spec);
  for (const std::string& k : spec.job_profile->knobs)
    if (why_not_transferable(k, spec.job_profile->context, target).empty()) out.push_back(k);
  return out;
}

ScenarioSpec calibrated(const ScenarioSpec& spec, std::vector<std::string>* notes)
{
  ScenarioSpec s = spec;
  Uncertainty u;
  if (spec.job_profile) {
    std::vector<std::string> n = apply_job_profile(*spec.job_profile, s, u);
    if (notes) notes->insert(notes->end(), n.begin(), n.end());
  }
  return s;
}


ScenarioReport predict(const ScenarioSpec& loaded, const RunOptions& run, int samples)
{
  ScenarioSpec spec = loaded;
  Uncertainty u;
  std::vector<std::string> notes;
  if (loaded.job_profile) notes = apply_job_profile(*loaded.job_profile, spec, u);
  // What the net plugin decides for NCCL on these nodes (topology/transport.hpp), said once.
  if (uses_nccl(loaded) && !loaded.communication.protocol && loaded.cluster.instance.nccl_proto_simple)
    notes.push_back("nccl: aws-ofi-nccl sets NCCL_PROTO=simple on " + loaded.cluster.instance.name +
                    " (its EFA promises no in-order 128-byte delivery): NCCL runs the Simple protocol only; "
                    "software.aws_ofi_nccl or communication.nccl_proto change it (docs/model.md \"Transports\")");
  // The network latency the plugin reports, which NCCL chooses by and a step does not pay.
  const auto& nodes = loaded.cluster.nodes;
  if (uses_nccl(loaded) && loaded.cluster.instance.nccl_net_latency > Time{0} && std::any_of(nodes.begin(), nodes.end(), [](int n) { return n > 1; }))
    notes.push_back("nccl: NCCL chooses on its own estimate, which charges each network hop the " +
                    fmt("%.0f", loaded.cluster.instance.nccl_net_latency.us()) + " us aws-ofi-nccl reports on " + loaded.cluster.instance.name +
                    "; the price of its choice pays the network's own latency (docs/model.md \"NCCL chooses on its own estimate\")");
  // Over TCP the stack's era decides how many flows a connection gets (docs/model.md "Transports"):
  // say which one an unstated stack was priced with, where it opens several (one flow, as in a
  // Kubernetes pod or with NCCL_SOCKET_NTHREADS=1, is what an older release opens too).
  const InstanceSpec& inst = loaded.cluster.instance;
  if (uses_nccl(loaded) && !loaded.cluster.software_stated && inst.nic.flow_cap > Bandwidth{0} && inst.nic.flows_per_connection > 1 &&
      std::any_of(nodes.begin(), nodes.end(), [](int n) { return n > 1; }))
    notes.push_back("software: not stated: priced with NCCL " + to_string(inst.nccl) + ", whose socket transport gives a connection " +
                    std::to_string(inst.nic.flows_per_connection) + " TCP flow(s) of at most " + fmt("%.0f", inst.nic.flow_cap.bytes_per_s * 8 / 1e9) +
                    " Gbps each on " + inst.name + "; NCCL before 2.4.8 opened one: set software.nccl, or software.as_of (the stack "
                    "of a date), for an older stack (docs/model.md \"Transports\")");
  notes.insert(notes.end(), loaded.cluster.software_notes.begin(), loaded.cluster.software_notes.end());
  // NCCL's socket threads spin beside the loader's workers while collectives cross nodes.
  const int gpn = loaded.cluster.gpus_per_node > 0 ? loaded.cluster.gpus_per_node : inst.gpus;
  if (uses_nccl(loaded) && loaded.data.workers > 0 && std::any_of(nodes.begin(), nodes.end(), [](int n) { return n > 1; }))
    if (const double lost = loader_share_lost(loaded.data.workers, inst.vcpus, gpn, inst.nic.spinning_threads); lost > 0)
      notes.push_back("input: NCCL's socket transport keeps " + std::to_string(inst.nic.spinning_threads) +
                      " helper threads per node busy while a collective crosses nodes; beside the loader's workers on " +
                      std::to_string(inst.vcpus) + " vCPUs they leave the loader " + fmt("%.0f", 100 * (1 - lost)) +
                      " % of its rate for that time (docs/model.md \"Input pipeline\")");
  add_traced(loaded, u, notes);  // issue 19
  const bool roofline = add_roofline_error(loaded, u);  // issue 18
  const bool node_loss = add_node_loss(loaded, u);       // issue 18
  add_profile_spread(loaded.communication.profile, u, notes);  // the catalog-only profile has no residuals: adds nothing
  const bool network = add_network_error(loaded, u);           // issue 18: ... so it gets the catalog's measured error
  const bool drift = add_network_drift(loaded, u);             // ... growing beyond the nodes it was measured on
  const bool doubling = add_doubling_loss(loaded, u);          // issue 18
  std::string assumed;
  for (const AssumedRange& a : loaded.assumed) {
    if (has_knob(u, a.knob)) continue;
    u.dims.push_back(assumed_range(a.knob, start_value(a.knob, loaded), a.low, a.high));
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s x%g-%g", a.field.c_str(), a.low, a.high);
    assumed += (assumed.empty() ? "" : ", ") + std::string(buf);
  }
  // Issue 21: every run below differs from the others only in knob values; they share the NCCL
  // schedules they can (sim/network/shape_cache.hpp), unless the caller gave its own cache.
  RunOptions shared = run;
  if (!shared.shapes) shared.shapes = std::make_shared<ShapeCache>();
  ScenarioReport report = run_scenario(spec, shared);
  if (loaded.job_profile) {
    RunOptions quiet = run;
    quiet.timeline = nullptr;
    quiet.progress = nullptr;
    const ScenarioReport before = run_scenario(loaded, quiet);
    for (std::size_t i = 0; i < report.results.size() && i < before.results.size(); ++i) {
      report.results[i].uncalibrated_step_s = before.results[i].step_time_s;
      report.results[i].uncalibrated_total_s = before.results[i].total_time_s;
    }
  }
  if (loaded.job_profile) mark_fit_roles(*loaded.job_profile, report);
  if (samples == kDefaultSamples) samples = uncertainty_matters(loaded, u, shared.shapes) ? kAutoSamples : 0;  // issue 20
  if (samples >= 2 && !u.empty()) {
    add_intervals(loaded, report, u, shared, samples);
    if (roofline) notes.push_back(roofline_note(loaded));
    if (node_loss) notes.push_back(node_loss_note());
    if (network) notes.push_back(network_error_note());
    if (drift) notes.push_back(network_drift_note(loaded));
    if (doubling) notes.push_back(doubling_loss_note(loaded));
    if (!assumed.empty()) notes.push_back("interval: catalog [assume] ranges " + assumed);
    notes.push_back("intervals (p10-p90) from " + std::to_string(samples) +
                    " Latin-hypercube samples of the uncertain inputs (--samples)");
  }
  report.notes = notes;
  return report;
}

}  // namespace ddpsim::sim
