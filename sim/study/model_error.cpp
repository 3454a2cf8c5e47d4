#include "sim/study/model_error.hpp"

#include <algorithm>
#include <cmath>
#include <boost/math/distributions/normal.hpp>
#include <cstdio>

#include "core/text.hpp"
#include "sim/study/knobs.hpp"

namespace ddpsim::sim {
namespace {

// Issue 18: over every single-GPU row the project holds (21 rows of the public DGX and p3 tables,
// 8 steps measured on an H100; docs/validation.md "The roofline's own error"), ln(measured /
// predicted compute time) has a root mean square of 0.60 (0.63 before the catalog's achievable HBM,
// round 4 session 23). A prediction that rests on the default carries that error on compute alone,
// not on communication, centred on the roofline.
constexpr double kRooflineLnSd = 0.60;

// Issue 18: every public 8-GPU node the project holds (validation/training: 20 NVIDIA DGX rows;
// validation/aws/training: 1 p3.16xlarge row) scaled to 84.1-99.9% of 8x its own one-GPU row.
// The model charges the slowest of the node's GPUs (sim/step/compute.hpp slowest_gpu_factor:
// 2.2% on 8 GPUs) and gives 96.9-97.9%; what is left, ln(predicted / measured efficiency), has a
// root mean square of 0.054 (mean 0.022; 13 rows positive up to 0.145, 8 BERT rows negative down
// to -0.020; docs/validation.md "The one-node loss"). No mechanism in the model explains the rest
// (docs/model.md "What real steps pay"), so it is a band: each GPU's compute x exp(N(0, 0.054^2))
// on a row with more than one GPU per node. Two-sided since the slowest GPU is charged (before,
// all 21 rows were losses and the band was half-normal, a loss only; folded now it would leave 11
// of the 21 below its p10).
constexpr double kNodeLossLnSd = 0.054;

// Issue 18: every multi-node collective the project holds, priced by the catalog alone
// (`scripts/validate.sh`, `--profile none`): 255 rows of 12 sources, all on AWS (nccl-tests logs of
// p3dn (two), p4d (three), p4de and three of p5 over two nodes; the p3dn 256 MiB points over EFA,
// patched EFA and TCP). ln(measured / predicted time) has a root mean square of 0.408 (mean +0.26;
// 196 of 255 rows too fast, median x1.32; per source RMS 0.07 (p3dn TCP) to 0.84 (p5, EKS)).
// Measured, not explained: what is left after the mechanisms found is listed in docs/validation.md
// ("Where the model misses, and why"; "The network price's own error"). So a prediction whose
// network rests on the catalog carries it, as a band on the whole time of every multi-node
// collective (knob network_scale: latency and bandwidth alike, as the error was measured; round 4
// session 19: until then it was on the efficiency alone, which left latency-bound sizes without a
// band), centred on the model: the centre is not moved towards these rows. Held out by source
// (each source's rows against the sd of the other eleven), 210 of the 255 rows lie inside its
// p10-p90 (82 %; 186, 73 %, before round 4 session 33), 44 of the 45 misses on the too-fast side.
// Its history as sources and mechanisms were added (0.475 over 148 rows, 0.510, 0.730 with the p4d
// logs of 2021, 0.576 with their libfabric priced, 0.410 with a ring's network hops, 0.408 with
// EFA's measured rate, round 4 session 35) is in docs/validation.md "The network price's own error".
// No InfiniBand multi-node log is held: applied there as measured here.
constexpr double kNetworkLnSd = 0.408;

// Issue 18: every public multi-node row the project holds with its own one-node row
// (validation/training: 40 DGX A100 BERT rows of PyTorch and PaddlePaddle, 2-32 nodes;
// validation/aws/training: 3 p3.16xlarge Horovod ResNet-50 rows, 2-8 nodes): the efficiency across
// nodes, (throughput at N nodes / N) / (throughput of one node), predicted against measured.
// ln(predicted / measured) is +0.043 on average (40 of 43 positive; Paddle +0.03..+0.11 from two
// nodes on, PyTorch BERT at sequence 512 in TF32 +0.22 at 32 nodes) and, per doubling of the nodes
// (ln / log2 nodes), has a root mean square of 0.0255: the loss grows with the nodes (a drift,
// as for a job fit's extrapolation, calibrate/job_extrapolation.hpp). No modelled mechanism
// explains it (communication is hidden behind backward or accumulation on the BERT rows;
// docs/model.md "What real steps pay"), so it is a band: each GPU's compute x
// exp(N(0, (0.0255 log2 nodes)^2)) on rows of several nodes, one draw per sample for every row (a
// sample's loss grows with the nodes), centred on the model. In-sample 36 of the 43 inside p10-p90;
// each source held out (against the other two's), 27 of 43: the sources differ more than the band.
constexpr double kDoublingLnSd = 0.0255;

// Issue 18 item 4 (round 4 session 28): how a network price's error grows beyond the node counts
// it was measured on. kNetworkLnSd was measured on two nodes (254 of its 255 rows), a fitted
// profile's residuals on the nodes its logs ran; issue 18's held-out p5 rows at 4-32 nodes, from a
// fit on 1-2 nodes, erred by far more than that fit's residuals. Every series the project holds of
// one setup at several node counts, each predicted from its two-node rows by one time scale (the
// mean of ln(predicted / measured) there, what `network_scale` would fit), as job fits measure
// theirs (calibrate/job_extrapolation.hpp, forward chaining), gives e = ln(predicted / measured)
// beyond them, d doublings out:
//   - p3dn EFA 70 MB, NCCL 2.4.7 (NVIDIA/nccl #235, validation/aws/quoted_points.csv): 4 nodes
//     e = -0.082 (d = 1), 8 nodes -0.009 (d = 2);
//   - p3dn 256 MiB over EFA without the plugin's patch, NCCL 2.4.6 (yaroslavvb's table,
//     validation/aws/collective_points.csv): 8 nodes e = -0.694 (d = 2) against its 14 two-node
//     rows (the model's price at 8 nodes is within 2 % of the run; at 2 nodes 1.96x too fast);
//   - p4d EFA with GPUDirect RDMA, 1 GiB (NVIDIA/nccl #527, 2022, validation/aws/quoted_points.csv;
//     round 4 session 29): 3 nodes e = +0.204 (d = 0.585), 4 nodes +0.029 (d = 1).
// As a drift, the form job fits use (error after d doublings ~ N(0, (s d)^2); docs/validation.md
// says why drift and not a random walk), s^2 = mean((e / d)^2) = 0.0500: s = 0.224 per doubling
// (0.206 from the p3dn rows alone, round 4 session 28). Five observations of three sources, two of
// them 2019 p3dn: a crude estimate, and the only one the project's data allow; both signs occur
// (the p3dn prices grew slower with the nodes than the runs' times, p4d's and issue 18's p5 rows
// faster), so the band is symmetric and centred on the model.
constexpr double kNetworkDriftLnSd = 0.224;
constexpr int kNetworkBandNodes = 2;  // where kNetworkLnSd was measured

bool shares_a_node(const ScenarioSpec& spec)
{
  for (int g : spec.cluster.gpus_per_node_each)
    if (g > 1) return true;
  const int g = spec.cluster.gpus_per_node > 0 ? spec.cluster.gpus_per_node : spec.cluster.instance.gpus;
  return spec.cluster.gpus_per_node_each.empty() && g > 1;
}

bool crosses_nodes(const ScenarioSpec& spec)
{
  const auto& nodes = spec.cluster.nodes;
  return std::any_of(nodes.begin(), nodes.end(), [](int n) { return n > 1; });
}

// One measured error as a normal dimension of ln(knob), centred on the knob's value in the
// scenario. Screened: a configuration the knob cannot move costs no samples.
void push_band(Uncertainty& u, const char* knob, const char* source, double value, double ln_sd)
{
  Dimension d;
  d.knob = knob;
  d.source = source;
  d.center = std::log(value);
  d.screened = true;
  push_normal(u, d, ln_sd * ln_sd);
}

}  // namespace

bool add_roofline_error(const ScenarioSpec& spec, Uncertainty& u)
{
  if (spec.compute.measured_step_s || spec.compute.efficiency_stated || spec.model.traced || spec.job_profile) return false;
  push_band(u, "compute_scale", "roofline error", 1.0, kRooflineLnSd);  // an input-bound step does not move
  return true;
}

std::string roofline_note(const ScenarioSpec& spec)
{
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "interval: compute x exp(N(0, %.2f)): the roofline at its default efficiency %.2f is an assumption "
                "(its error on 29 measured single-GPU steps); set compute.measured_step_s or fit compute_scale",
                kRooflineLnSd, spec.compute.efficiency);
  return buf;
}

bool add_node_loss(const ScenarioSpec& spec, Uncertainty& u)
{
  // A stated one-node loss (compute.node_slowdown, overheads.node_step_cost) is a measurement: no band.
  const bool stated = spec.compute.node_slowdown != 1.0 || spec.overheads.node_step_cost.ps > 0;
  if (spec.job_profile || spec.model.traced || stated || !shares_a_node(spec)) return false;
  push_band(u, "node_slowdown", "one-node loss", spec.compute.node_slowdown, kNodeLossLnSd);
  return true;
}

std::string node_loss_note()
{
  return "interval: compute x exp(N(0, " + fmt("%.3f", kNodeLossLnSd) +
         ")) on rows with more than one GPU per node: 21 public 8-GPU nodes reached 84-100% of 8x one GPU where the "
         "model, charging the slowest GPU, gives 97-98%; fit node_step_cost (a cost per step, which carries across "
         "precisions) or node_slowdown with calibrate job on a 1-GPU and a full-node row";
}

namespace {

// A job profile every fitted row of which ran on one node (calibrate job --fit-on nodes=1): its
// forward fits could measure no growth of its error with the nodes (round 4 session 20), nor
// anything of the network (session 28).
bool fitted_on_one_node(const JobProfile& p)
{
  if (p.extrapolation_ln_sd > 0 || p.roles.empty()) return false;
  bool any = false;
  for (const JobProfile::Role& r : p.roles)
    if (r.role == "fitted") {
      if (r.nodes != 1) return false;
      any = true;
    }
  return any;
}

}  // namespace

bool add_network_error(const ScenarioSpec& spec, Uncertainty& u)
{
  const Profile& prof = spec.communication.profile;
  // A job profile fitted on one node, or a network profile fitted on one-node logs alone, measured
  // nothing of the network (round 4 session 28), as for the loss across nodes below: the catalog's
  // price keeps its measured error.
  if ((spec.job_profile && !fitted_on_one_node(*spec.job_profile)) || prof.network.fitted ||
      profile_residual_spread(prof).rows >= 2 || !crosses_nodes(spec))
    return false;
  for (const Dimension& d : u.dims)
    if (d.knob == "network_efficiency" || d.knob == "network_scale") return false;
  push_band(u, "network_scale", kNetworkPriceSource, prof.network.time_scale, kNetworkLnSd);  // hidden: no samples
  return true;
}

std::string network_price_record()
{
  return "the 255 multi-node nccl-tests rows the project holds (12 AWS sources) ran 1.32x their price (median; ln sd " +
         fmt("%.3f", kNetworkLnSd) + "; docs/validation.md \"The network price's own error\")";
}

std::string network_error_note()
{
  return "interval: every collective across nodes x exp(N(0, " + fmt("%.3f", kNetworkLnSd) +
         ")): the network is priced by the catalog alone, whose multi-node collectives measured 1.32x their price "
         "(median of 255 rows, 12 AWS sources); fit a profile on your nccl-tests log (calibrate fit)";
}

double network_price_ln_sd() { return kNetworkLnSd; }

double network_error_factor(double q, double ln_sd)
{
  return std::exp(ln_sd * boost::math::quantile(boost::math::normal(), q));
}

ResidualSpread profile_residual_spread(const Profile& prof, bool across_nodes)
{
  std::vector<const Residual*> rows;
  for (const Residual& r : prof.residuals)
    if ((r.nodes > 1) == across_nodes && r.measured_us > 0 && r.predicted_us > 0) rows.push_back(&r);
  if (rows.size() < 2) return ResidualSpread{};
  ResidualSpread out;
  out.held_out = std::all_of(rows.begin(), rows.end(), [](const Residual* r) { return r->held_out_us > 0; });
  std::vector<double> ln;
  for (const Residual* r : rows) {
    ln.push_back(std::log((out.held_out ? r->held_out_us : r->predicted_us) / r->measured_us));
    out.max_nodes = std::max(out.max_nodes, r->nodes);
  }
  double mean = 0, var = 0;
  for (double v : ln) mean += v / static_cast<double>(ln.size());
  for (double v : ln) var += (v - mean) * (v - mean) / static_cast<double>(ln.size() - 1);
  out.ln_sd = std::sqrt(var);
  out.rows = static_cast<int>(ln.size());
  return out;
}

bool add_doubling_loss(const ScenarioSpec& spec, Uncertainty& u)
{
  if ((spec.job_profile && !fitted_on_one_node(*spec.job_profile)) || !crosses_nodes(spec)) return false;
  push_band(u, "doubling_slowdown", "loss across nodes", spec.compute.doubling_slowdown, kDoublingLnSd);
  return true;
}

std::string doubling_loss_note(const ScenarioSpec& spec)
{
  return "interval: compute x exp(N(0, " + fmt("%.4f", kDoublingLnSd) +
         ")) per doubling of the nodes beyond one" +
         (spec.job_profile ? std::string(" (the job profile was fitted on one node only)") : std::string()) +
         ": 43 public multi-node rows lost up to 20 points of their one-node "
         "efficiency, the model less; fit doubling_slowdown with calibrate job on rows of one and several nodes";
}

double network_drift_ln_sd() { return kNetworkDriftLnSd; }

int price_error_nodes(const Profile& prof)
{
  if (!prof.network.fitted) return kNetworkBandNodes;
  const ResidualSpread s = profile_residual_spread(prof);
  return s.rows >= 2 ? s.max_nodes : 0;
}

double network_sd_at(double ln_sd, int measured_nodes, int nodes)
{
  if (measured_nodes <= 0 || nodes <= measured_nodes) return ln_sd;
  const double d = std::log2(static_cast<double>(nodes) / measured_nodes);
  return std::sqrt(ln_sd * ln_sd + kNetworkDriftLnSd * kNetworkDriftLnSd * d * d);
}

double catalog_sd_at(int nodes) { return network_sd_at(kNetworkLnSd, kNetworkBandNodes, nodes); }

std::uint64_t unfitted_latency_below(const Profile& prof)
{
  if (!prof.network.fitted) return 0;
  std::uint64_t smallest = 0;
  for (const Residual& r : prof.residuals)
    if (r.nodes > 1 && (smallest == 0 || r.bytes < smallest)) smallest = r.bytes;
  return smallest >= MiB ? smallest : 0;  // a row below 1 MiB: alpha was fitted (calibrate/fit.hpp)
}

bool add_network_drift(const ScenarioSpec& spec, Uncertainty& u)
{
  const bool priced_with_error = std::any_of(u.dims.begin(), u.dims.end(), [](const Dimension& d) {
    return d.knob == "network_scale" && (d.source == kNetworkPriceSource || d.source == kProfileResidualsSource);
  });
  const int measured = price_error_nodes(spec.communication.profile);
  const auto& nodes = spec.cluster.nodes;
  if (!priced_with_error || measured <= 0 || std::none_of(nodes.begin(), nodes.end(), [&](int n) { return n > measured; }))
    return false;
  push_band(u, "network_drift", "network price error beyond its nodes", spec.communication.profile.network.drift, kNetworkDriftLnSd);
  return true;
}

std::string network_drift_note(const ScenarioSpec& spec)
{
  return "interval: beyond " + std::to_string(price_error_nodes(spec.communication.profile)) +
         " node(s), where that network error was measured, every collective across nodes also x exp(N(0, (" +
         fmt("%.3f", kNetworkDriftLnSd) + " d)^2)) for d doublings further (5 runs of p3dn and p4d series at 3-8 nodes "
         "predicted from their 2-node rows; docs/validation.md); a profile fitted on logs of those nodes narrows it";
}

}  // namespace ddpsim::sim
