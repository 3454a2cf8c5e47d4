#include "calibrate/plausibility.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "calibrate/fit.hpp"
#include "sim/study/model_error.hpp"

namespace ddpsim::calibrate {
namespace {

std::string fmt(const char* f, double a, double b = 0)
{
  char buf[256];  // the longest format here prints 98 bytes
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

const std::string kSlowNetwork =
    "probably missing: a cost the model does not have, not a slow link (host-staged copies without GPUDirect RDMA, "
    "NCCL's socket threads and kernel copies over TCP, the EC2 per-flow limit, CPU taken from the input pipeline, "
    "exposed communication or framework negotiation)";

// Without GPUDirect RDMA ddpsim stages each network connection through the NIC's PCIe switch;
// aws-ofi-nccl's AWS builds present p3dn's one EFA to NCCL as four devices (EFA_NIC_DUP since
// 2019, NIC_DUP_CONNS = 4 on p3dn in master since v1.6.0), which spreads the staging over more
// GPUs and cores, and every four-device p3dn measurement held ran faster than the staged price.
const std::string kStagedSpread =
    "; on this route without GPUDirect RDMA, also: the net plugin spread the host staging over more devices than "
    "modelled (aws-ofi-nccl's AWS builds show p3dn's one EFA to NCCL as 4, NIC_DUP_CONNS; docs/validation.md "
    "\"Where the model misses\" 6)";

// `above_one_also`: a further candidate for an efficiency at or above 1 (kStagedSpread).
std::string efficiency_warning(const std::string& what, double e, const std::string& assumed,
                               const std::string& above_one_also = "")
{
  if (e >= 1 - kOnBound)
    return what + fmt(" %.4g is at or above 1 (the catalog's achievable rate): ", e) +
           "probably missing: the algorithm the runs used moves fewer bytes over the bottleneck than the one assumed (" +
           assumed + "; set it with NCCL_ALGO in the log, --algorithm, or the tuner), or the catalog derates this link class too much" +
           above_one_also;
  if (e < kPlausibleEfficiency)
    return what + fmt(" %.3g is below the plausible %.2g of the catalog's achievable rate: ", e, kPlausibleEfficiency) +
           kSlowNetwork;
  return "";
}

}  // namespace

std::vector<std::string> profile_warnings(const sim::Profile& p, bool host_staged)
{
  std::vector<std::string> out;
  for (const bool multi : {false, true}) {
    const sim::ScopeParams& s = multi ? p.network : p.intra;
    if (!s.fitted) continue;
    std::set<std::string> pairs;
    for (const sim::Residual& r : p.residuals)
      if ((r.nodes > 1) == multi) pairs.insert(r.algorithm + " " + r.protocol);
    std::string assumed;
    for (const std::string& a : pairs) assumed += (assumed.empty() ? "" : ", ") + a;
    const std::string scope = multi ? "multi-node" : "one-node";
    if (std::string w = efficiency_warning(scope + " efficiency", s.efficiency, assumed, multi && host_staged ? kStagedSpread : "");
        !w.empty())
      out.push_back(w);
    if (s.alpha_us < 0)
      out.push_back(scope + fmt(" alpha %.3g us is negative: the rows are faster than NCCL's own latency table (the floor); ",
                                s.alpha_us) +
                    "probably missing: a protocol or algorithm with less latency than the one assumed (" + assumed +
                    "), or sizes too large to identify the latency");
    // calibrate/fit.cpp drops the sqrt(S) column when the rows give it a negative weight: gamma
    // then sits on its bound, 0 (a pipeline fill is never negative).
    if (s.gamma_us == 0)
      out.push_back(scope + " gamma is on its bound 0: the rows ask for a negative sqrt(S/MiB) term, i.e. they run "
                            "relatively faster at large sizes than at mid sizes on the bandwidth line; probably missing: a "
                            "size-dependent choice the model does not make (a protocol or algorithm switch; assumed: " +
                    assumed + "), or a mid-size cost priced too high");
  }
  return out;
}

std::string knob_warning(const std::string& knob, double v, double start)
{
  if (knob == "network_efficiency") return efficiency_warning("network_efficiency", v, "NCCL's choice as modelled");
  // The catalog's price of collectives across nodes against the measured ones: ln sd 0.408 over
  // 255 (sim/study/model_error.hpp; docs/validation.md "The network price's own error"); beyond 2 sd
  // either way (0.44-2.3) is another cost.
  if (knob == "network_scale") {
    const double lo = std::exp(-2 * sim::network_price_ln_sd()), hi = std::exp(2 * sim::network_price_ln_sd());
    if (v < lo || v > hi)
      return fmt("network_scale %.3g is outside the plausible ", v) + fmt("%.2g", lo) + "-" + fmt("%.2g", hi) +
             " (2 sd of the catalog price's measured error): " +
             "probably missing: a transport cost the model does not have (host-staged or TCP copies, the per-flow limit, "
             "CPU taken from the loader) or a per-step cost (step_overhead)";
  }
  if (knob == "compute_efficiency") {
    if (v >= 1 - kOnBound) return fmt("compute_efficiency %.3g is at its bound 1 (peak FLOP/s): ", v) +
                                  "probably missing: less work than modelled (a smaller model, mixed precision, fused kernels)";
    if (v > 0.9 || v < 0.05)
      return fmt("compute_efficiency %.3g is outside the plausible 0.05-0.9 of peak: ", v) +
             "probably missing: a compute cost or saving the model lacks (input pipeline, kernel launches, precision)";
  }
  if ((knob == "compute_scale" || knob == "model_scale") && (v < 0.2 || v > 5))
    return knob + fmt(" %.3g is outside the plausible 0.2-5: ", v) +
           "the knob is absorbing a mechanism, not correcting a scale (check the model, batch and precision)";
  if ((knob == "network_latency" || knob == "nvlink_latency" || knob == "pcie_latency") && v < start * (1 - kOnBound))
    return knob + fmt(" %.3g us is below the catalog's %.3g us (the floor): ", v * 1e6, start * 1e6) +
           "probably missing: a faster path than modelled (NCCL's LL protocol, fewer hops), or a step cost fitted elsewhere";
  if (knob == "step_overhead" && v > 1)
    return fmt("step_overhead %.3g s per step is beyond the plausible 1 s: ", v) + kSlowNetwork;
  if (knob == "loader_cpu" && v > 1)
    return fmt("loader_cpu %.3g s per sample is beyond the plausible 1 s: ", v) +
           "probably missing: an input-pipeline cost the model does not have (storage, decoding, CPU contention)";
  // 21 public one-node measurements lost 0-16% of 8x against ~100% modelled (docs/validation.md
  // "The one-node loss"): a slowdown of 1.00-1.18. Well below or far above that range is another cost.
  if (knob == "node_slowdown" && (v < 0.95 || v > 1.3))
    return fmt("node_slowdown %.3g", v) + " is outside the plausible 0.95-1.3 (public 8-GPU nodes: 1.00-1.18): " +
           "probably missing: communication or an input-pipeline cost that grows with the GPUs in use, not the node's share";
  // 8 public ResNet-50 nodes (NVIDIA's DGX-1 and DGX A100 tables) lost 3-27 ms per step beyond the
  // model (docs/validation.md "The one-node loss across precisions"). Far beyond is another cost.
  if (knob == "node_step_cost" && v > 0.1)
    return fmt("node_step_cost %.3g s per step is beyond the plausible 0.1 s (public 8-GPU ResNet-50 nodes: ", v) +
           "0.003-0.027 s): probably missing: communication or an input-pipeline cost that grows with the step";
  // 43 public multi-node rows (2-32 nodes) lost, beyond their own node, x0.95-1.07 of compute per
  // doubling of nodes (docs/validation.md "The loss across nodes"). Far beyond is another cost.
  if (knob == "doubling_slowdown" && (v < 0.95 || v > 1.15))
    return fmt("doubling_slowdown %.3g", v) + " is outside the plausible 0.95-1.15 (public multi-node rows: 0.95-1.07 per " +
           "doubling): probably missing: a network priced too fast (fit network_efficiency) or a per-step cost (step_overhead)";
  return "";
}

std::vector<std::string> job_warnings(const JobFit& fit)
{
  std::vector<std::string> out;
  for (const FittedKnob& k : fit.knobs)
    if (std::string w = knob_warning(k.name, k.value, k.start); !w.empty()) out.push_back(w);
  return out;
}

double loo_model_error(const JobFit& fit, int& rows)
{
  double sum = 0;
  rows = 0;
  for (const RowFit& r : fit.rows)
    if (r.fitted && r.loo_predicted && *r.loo_predicted > 0) {
      const double e = std::log(*r.loo_predicted / r.obs.value);
      sum += e * e;
      ++rows;
    }
  return rows > 0 ? std::sqrt(sum / rows) : 0.0;
}

// fit.hpp: a fit whose parameters are physically impossible, and the instances the logs fit plausibly.
std::optional<Implausible> implausible(const sim::Profile& prof)
{
  for (const bool multi : {false, true}) {
    const sim::ScopeParams& s = multi ? prof.network : prof.intra;
    if (!s.fitted) continue;
    SourceLocation where;
    for (const sim::Residual& r : prof.residuals)
      if ((r.nodes > 1) == multi) {
        where = SourceLocation{r.file, r.line, 1};
        break;
      }
    const std::string scope = multi ? "multi-node" : "one-node";
    char buf[240];
    if (s.efficiency > kMaxEfficiency) {
      std::snprintf(buf, sizeof buf, "%s fit: efficiency %.3g, i.e. %.3gx the catalog's line rate of %s", scope.c_str(),
                    s.efficiency, s.efficiency, prof.instance.c_str());
      return Implausible{where, buf};
    }
    if (s.efficiency < kMinEfficiency) {
      std::snprintf(buf, sizeof buf, "%s fit: efficiency %.3g of %s's line rate is implausibly low", scope.c_str(),
                    s.efficiency, prof.instance.c_str());
      return Implausible{where, buf};
    }
    if (std::abs(s.alpha_us) > kMaxAlphaUs) {
      std::snprintf(buf, sizeof buf, "%s fit: latency alpha %.4g us is absurd (beyond +-%.0f us)", scope.c_str(), s.alpha_us,
                    kMaxAlphaUs);
      return Implausible{where, buf};
    }
  }
  return std::nullopt;
}

std::vector<std::string> plausible_instances(const std::vector<InstanceSpec>& instances, const std::vector<NcclLog>& logs,
                                             const std::string& algorithm, const std::string& except)
{
  std::vector<std::string> out;
  for (const InstanceSpec& other : instances) {
    if (other.name == except) continue;
    try {
      if (!implausible(fit_profile(other, logs, algorithm))) out.push_back(other.name);
    } catch (const UserError&) {
      // the logs do not even have that instance's shape
    }
  }
  return out;
}

}  // namespace ddpsim::calibrate
