#include "calibrate/expect.hpp"

#include <algorithm>
#include <cmath>

#include "calibrate/launch_floor.hpp"
#include "calibrate/log_env.hpp"
#include "calibrate/nccl_tests.hpp"
#include "core/quantile.hpp"
#include "core/text.hpp"
#include "sim/network/backends.hpp"
#include "sim/network/collective_model.hpp"
#include "sim/study/collective_band.hpp"
#include "sim/study/model_error.hpp"

namespace ddpsim::calibrate {

Expecter::Expecter(const ExpectBasis& basis, const ExpectInput& in)
    : in_(in), inst_(basis.instance), prof_(basis.profile)
{
  const std::string& prof_name = basis.profile_name;
  const algo::CollectiveOp op = parse_op(in.op);
  header_.instance = in.instance;
  header_.op = in.op;
  header_.gpus_per_node = in.gpus_per_node > 0 ? std::min(in.gpus_per_node, inst_.gpus) : inst_.gpus;
  header_.algorithm = "auto";
  // The profile's forced algorithm, by the one rule (sim/network/profile.hpp).
  if (auto forced = sim::profile_algorithm(prof_, false, op)) header_.algorithm = std::move(*forced);
  auto& p = header_.provenance;
  p.push_back("catalog: " + inst_.name + " (topology/catalog/instances.yaml, compiled in): " + inst_.description);
  if (prof_name.empty()) {
    p.push_back("profile: none (the catalog alone: line rates and NCCL's latency model, nothing measured)");
    p.push_back("spread: the catalog price's measured error, time x exp(N(0, sd^2)) at p10/p90: on one node sd " +
                fmt("%.3f", sim::intra_price_ln_sd()) + " (" + sim::intra_price_record() + "); across nodes " +
                fmt("%.3f", sim::network_price_ln_sd()) + " at 2 nodes, widened by " + fmt("%.3f", sim::network_drift_ln_sd()) +
                " in ln per doubling beyond (" + sim::network_price_record() + ")");
  } else {
    std::vector<std::string> nodes;
    for (const sim::Residual& r : prof_.residuals)
      if (std::find(nodes.begin(), nodes.end(), std::to_string(r.nodes)) == nodes.end()) nodes.push_back(std::to_string(r.nodes));
    p.push_back("profile: " + prof_name + " (" + prof_.provenance.method + ")");
    p.push_back("fit data: " + std::to_string(prof_.residuals.size()) + " points on " + join(nodes, ", ") + " node(s) from " +
                join(prof_.provenance.inputs, ", ") +
                (prof_.provenance.nccl_version.empty() ? "" : ", NCCL " + prof_.provenance.nccl_version) +
                "; other node counts reuse the fitted terms (extrapolated)");
    const std::uint64_t unfitted = sim::unfitted_latency_below(prof_);
    p.push_back("spread: the model's time x the 10/50/90th percentile of measured/predicted (each point predicted by the "
                "fit without it, where the profile records that) over the fit's points of the same scope within 4x of the "
                "size (all of the scope's points where fewer than 4); across nodes beyond those the fit measured, widened by " +
                fmt("%.3f", sim::network_drift_ln_sd()) + " in ln per doubling" +
                (unfitted > 0
                     ? "; below " + format_bytes(Bytes{unfitted}) +
                           " across nodes (its latency was not fitted: no row below 1 MiB) the catalog price's error, sd " +
                           fmt("%.3f", sim::network_price_ln_sd()) + " (docs/validation.md)"
                     : std::string()) +
                (prof_.network.fitted ? std::string()
                                      : "; across nodes (the profile's logs ran on one node: the network is the catalog's) the "
                                        "catalog price's error, sd " + fmt("%.3f", sim::network_price_ln_sd()) +
                                            " at 2 nodes, widened beyond as above") +
                (prof_.intra.fitted ? std::string()
                                    : "; on one node (the profile's logs crossed nodes: one node is the catalog's) the catalog "
                                      "price's error, sd " + fmt("%.3f", sim::intra_price_ln_sd())));
  }
  if (header_.algorithm != "auto")
    p.push_back("algorithm: " + header_.algorithm + " (the profile's logs forced it: run nccl-tests with NCCL_ALGO=" +
                header_.algorithm + ")");
  else
    p.push_back("algorithm: NCCL's own per-size choice (tuning.cc's model)");
}

ExpectRow Expecter::at(int nodes, std::uint64_t bytes) const
{
  const algo::CollectiveOp op = parse_op(in_.op);
  const int gpn = header_.gpus_per_node;
  ExpectRow row;
  row.nodes = nodes;
  row.ranks = nodes * gpn;
  row.bytes = bytes;
  const Topology topo(inst_, nodes, gpn);
  const auto net = sim::make_backend(sim::EngineKind::analytical, topo);
  const sim::CollectiveModel model(topo, sim::CollectiveOptions{header_.algorithm, std::nullopt, prof_, {}, {}, 0});
  const sim::PricedCollective c = model.price(op, Bytes{bytes});
  row.algorithm = std::string(c.algorithm->name());
  row.protocol = c.protocol ? std::string(to_string(*c.protocol)) : "-";
  const double t = sim::time_alone_us(c, *net);
  const double factor = bus_factor(op, row.ranks);
  auto busbw = [&](double us) { return static_cast<double>(bytes) / (us * 1e-6) / 1e9 * factor; };
  double t10 = t, t50 = t, t90 = t;  // times: t90 is the slow end
  std::vector<double> near, scope;
  // Held-out predictions where the scope's every row has one (sim::ResidualSpread's rule).
  const bool held_out = sim::profile_residual_spread(prof_, nodes > 1).held_out;
  for (const sim::Residual& r : prof_.residuals) {
    if ((r.nodes > 1) != (nodes > 1) || r.measured_us <= 0 || r.predicted_us <= 0) continue;
    const double ln = std::log(r.measured_us / (held_out ? r.held_out_us : r.predicted_us));
    scope.push_back(ln);
    if (std::abs(std::log2(static_cast<double>(std::max<std::uint64_t>(r.bytes, 1)) / static_cast<double>(bytes))) <= 2)
      near.push_back(ln);
  }
  const std::vector<double>& use = near.size() >= 4 ? near : scope;
  const sim::CollectiveBand band = sim::collective_band(prof_, nodes);
  if (band.on && (!prof_.scope(nodes).fitted || bytes < band.catalog_below)) {
    // On the catalog's price (the scope not fitted), or below the sizes a profile without a fitted
    // latency measured (the catalog's latency prices it there): the catalog price's measured error
    // (sim/study/collective_band.hpp), with the drift beyond 2 nodes.
    const double f = sim::network_error_factor(0.9, band.sd_at(bytes));
    t10 = t / f, t90 = t * f;
  } else if (!use.empty()) {
    double q10 = quantile(use, 0.1), q50 = quantile(use, 0.5), q90 = quantile(use, 0.9);
    // Beyond the nodes they were measured on, each side widens by the drift as a normal's would.
    if (const int measured = sim::price_error_nodes(prof_); nodes > 1 && measured > 0 && nodes > measured) {
      const double d = std::log2(static_cast<double>(nodes) / measured);
      const double w = std::log(sim::network_error_factor(0.9, sim::network_drift_ln_sd() * d));
      q10 = q50 - std::hypot(q50 - q10, w), q90 = q50 + std::hypot(q90 - q50, w);
    }
    t10 = t * std::exp(q10), t50 = t * std::exp(q50), t90 = t * std::exp(q90);
    row.points = static_cast<int>(use.size());
  }
  row.p10 = busbw(std::max(t10, t90)), row.p50 = busbw(t50), row.p90 = busbw(std::min(t10, t90));
  return row;
}

Expectation expect_busbw(const ExpectBasis& basis, const ExpectInput& in)
{
  Expecter e(basis, in);
  Expectation out = e.header();
  for (int n : in.nodes)
    for (std::uint64_t b : in.sizes) out.rows.push_back(e.at(n, b));
  return out;
}

std::vector<CheckRow> check_log(const ExpectBasis& basis, ExpectInput in, const NcclLog& log, Expectation& header)
{
  const InstanceSpec& inst = basis.instance;
  const int gpn = in.gpus_per_node > 0 ? std::min(in.gpus_per_node, inst.gpus) : inst.gpus;
  const int nodes = log.nodes > 0 ? log.nodes : log.ranks / gpn;
  if (log.rows.empty()) throw UserError(SourceLocation{log.file, 1, 1}, "", "no result rows in the log");
  if (nodes < 1 || nodes * gpn != log.ranks)
    throw UserError(SourceLocation{log.file, log.rows.front().line, 1}, "",
                    "the log has " + std::to_string(log.ranks) + " ranks, not a multiple of " + std::to_string(gpn) +
                        " GPUs per node (check --instance or --gpus-per-node)");
  in.nodes = {nodes};
  ExpectBasis as_logged = basis;  // the log's NCCL release, when it prints its banner
  as_logged.instance = as_run(basis.instance, log);
  Expecter e(as_logged, in);
  header = e.header();
  std::vector<CheckRow> out;
  // No row can beat the benchmark's launch floor (launch_floor_us): each percentile's busbw is capped
  // by the floor's end of the same side (the fast end by the lowest per-call cost measured).
  const double factor = bus_factor(parse_op(in.op), log.ranks);
  const bool floored = launch_floor_us(log) > 0;
  for (const LogRow& r : log.rows) {
    CheckRow c{e.at(nodes, r.bytes.n), r.busbw_GBps, r.line, "pass"};
    if (floored) {
      const auto cap = [&](double per_call_us) { return r.bytes.as_double() / launch_floor_us(log, per_call_us) * 1e-3 * factor; };
      c.expected.p10 = std::min(c.expected.p10, cap(kNcclHostCallHighUs));
      c.expected.p50 = std::min(c.expected.p50, cap(kNcclHostCallUs));
      c.expected.p90 = std::min(c.expected.p90, cap(kNcclHostCallLowUs));
    }
    if (r.busbw_GBps + r.busbw_ulp < c.expected.p10) c.verdict = "slow";
    else if (r.busbw_GBps - r.busbw_ulp > c.expected.p90) c.verdict = "fast";
    header.rows.push_back(c.expected);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ddpsim::calibrate
