#include "calibrate/fit.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <memory>

#include "calibrate/launch_floor.hpp"
#include "calibrate/log_env.hpp"
#include "calibrate/plausibility.hpp"
#include "sim/network/collective_model.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

struct Point {
  const NcclLog* log;
  const LogRow* row;
  int nodes;
  const algo::Algorithm* algorithm;
  algo::Protocol protocol;
  sim::CostTerms terms;  // the collective model's split, before any profile
};

enum Col { kAlpha, kBeta, kGamma };

double column(Col c, const Point& p)
{
  switch (c) {
    case kAlpha: return 1.0;
    case kBeta: return p.terms.bandwidth_us;
    case kGamma: return std::sqrt(p.row->bytes.as_double() / static_cast<double>(MiB));
  }
  return 0;
}

// Weighted least squares on the active columns; returns coefficients in column order.
Eigen::VectorXd solve(const std::vector<Point>& pts, const std::vector<Col>& cols)
{
  Eigen::MatrixXd a(static_cast<Eigen::Index>(pts.size()), static_cast<Eigen::Index>(cols.size()));
  Eigen::VectorXd b(static_cast<Eigen::Index>(pts.size()));
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const double w = 1.0 / pts[i].row->time_us;
    const auto ii = static_cast<Eigen::Index>(i);
    for (std::size_t j = 0; j < cols.size(); ++j) a(ii, static_cast<Eigen::Index>(j)) = w * column(cols[j], pts[i]);
    b(ii) = w * (pts[i].row->time_us - pts[i].terms.latency_us);
  }
  return a.colPivHouseholderQr().solve(b);
}

// The columns a scope's rows identify: alpha only where some row is below 1 MiB (fit.hpp).
std::vector<Col> columns(const std::vector<Point>& pts)
{
  bool small = false;
  for (const Point& p : pts) small = small || p.row->bytes.n < MiB;
  std::vector<Col> cols = {kBeta, kGamma};
  if (small) cols.insert(cols.begin(), kAlpha);
  return cols;
}

// The scope's parameters from `pts` by the rules of fit.hpp (gamma dropped where it comes out
// negative), or nullopt where the rows do not determine a bandwidth (1/efficiency not positive).
std::optional<sim::ScopeParams> solve_scope(const std::vector<Point>& pts)
{
  std::vector<Col> cols = columns(pts);
  Eigen::VectorXd x = solve(pts, cols);
  if (x(static_cast<Eigen::Index>(cols.size() - 1)) < 0) {  // gamma < 0: no pipeline fill to see
    cols.pop_back();
    x = solve(pts, cols);
  }
  sim::ScopeParams s;
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const double v = x(static_cast<Eigen::Index>(j));
    if (cols[j] == kAlpha) s.alpha_us = v;
    if (cols[j] == kBeta) {
      if (!(v > 0)) return std::nullopt;
      s.efficiency = 1.0 / v;
    }
    if (cols[j] == kGamma) s.gamma_us = v;
  }
  s.fitted = true;
  s.points = static_cast<int>(pts.size());
  return s;
}

bool within_limits(const sim::ScopeParams& s)
{
  using L = ProfileLimits;
  const auto inside = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
  return inside(s.alpha_us, L::alpha_us_min, L::alpha_us_max) && inside(s.efficiency, L::efficiency_min, L::efficiency_max) &&
         inside(s.gamma_us, L::gamma_us_min, L::gamma_us_max);
}

sim::ScopeParams fit_scope(const std::vector<Point>& pts, const std::string& scope)
{
  if (pts.empty()) return sim::ScopeParams{};
  // Errors point at the scope's first row: the fit as a whole has no single line.
  const SourceLocation at{pts.front().log->file, pts.front().row->line, 1};
  const std::size_t params = columns(pts).size();
  if (pts.size() < params + 1)
    throw UserError(at, "", scope + " fit: " + std::to_string(pts.size()) + " rows are too few for " +
                    std::to_string(params) + " parameters");
  const std::optional<sim::ScopeParams> s = solve_scope(pts);
  if (!s) throw UserError(at, "", scope + " fit: the rows do not determine a bandwidth (need sizes of 1 MiB and more)");
  if (!within_limits(*s)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "alpha %.3g us, efficiency %.3g, gamma %.3g us", s->alpha_us, s->efficiency, s->gamma_us);
    throw UserError(at, "", scope + " fit: the rows give absurd parameters (" + buf +
                                "); are the times in microseconds and the sizes in bytes?");
  }
  return *s;
}

// Per point, its scope fitted again without it by the same rules (issue 18 item 4: an interval's
// spread from rows the fit did not see). nullopt where the other rows are too few for the columns
// they identify, do not determine a bandwidth, or give parameters a profile cannot hold: that row
// then has no held-out prediction.
std::vector<std::optional<sim::ScopeParams>> leave_one_out(const std::vector<Point>& pts)
{
  std::vector<std::optional<sim::ScopeParams>> out(pts.size());
  std::vector<Point> rest;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    rest.assign(pts.begin(), pts.end());
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
    if (rest.size() < columns(rest).size() + 1) continue;
    if (std::optional<sim::ScopeParams> s = solve_scope(rest); s && within_limits(*s)) out[i] = s;
  }
  return out;
}

}  // namespace

std::pair<int, int> log_shape(const InstanceSpec& instance, const NcclLog& log)
{
  int nodes = log.nodes;
  if (nodes == 0) nodes = log.ranks <= instance.gpus ? 1 : log.ranks / instance.gpus;
  if (nodes < 1 || log.ranks % nodes != 0 || log.ranks / nodes > instance.gpus)
    throw UserError(SourceLocation{log.file, log.rows.empty() ? 1 : log.rows.front().line, 1}, "",
                    std::to_string(log.ranks) + " ranks do not fit on " + instance.name + " nodes of " +
                        std::to_string(instance.gpus) + " GPUs");
  return {nodes, log.ranks / nodes};
}

sim::Profile fit_profile(const InstanceSpec& instance, const std::vector<NcclLog>& logs, const std::string& algorithm)
{
  DDPSIM_CHECK(!logs.empty(), "fit without logs");
  sim::Profile prof = sim::default_profile(instance.name);
  std::vector<Point> intra, network;
  std::vector<sim::CollectiveOptions> options;  // per log
  // Topologies and backends live as long as the points' choices point at registry algorithms only.
  for (const NcclLog& log : logs) {
    const auto [nodes, gpn] = log_shape(instance, log);
    const Topology topo(as_run(instance, log), nodes, gpn);
    LogChoice choice = log_choice(log);  // what the log's environment says NCCL ran (issue 18)
    if (algorithm != "auto") {
      choice.algorithm = algorithm;
      choice.why += "; --algorithm " + algorithm;
    }
    sim::CollectiveOptions& o = options.emplace_back();
    o.algorithm = choice.algorithm;
    o.protocol = choice.protocol;
    o.tuner = choice.tuner;
    if (topo.instance().nccl_proto_simple && !choice.protocol)
      choice.why += "; aws-ofi-nccl sets NCCL_PROTO=simple on " + instance.name + " (Simple only)";
    if (topo.instance().nccl != instance.nccl)
      choice.why += "; NCCL " + to_string(topo.instance().nccl) + " (the log's banner) decides which algorithms and protocols exist";
    prof.provenance.assumed.push_back(log.file + ": " + choice.why);
    const sim::CollectiveModel model(topo, o);  // catalog alone: the terms the fit works on
    // Rows at the benchmark's launch floor time its host calls, not the collective: not fitted.
    const double floor = launch_floor_us(log, kNcclHostCallHighUs);
    int at_floor = 0;
    for (const LogRow& row : log.rows) {
      if (at_launch_floor(log, row)) {
        ++at_floor;
        continue;
      }
      sim::PricedCollective c;
      try {
        c = model.price(algo::CollectiveOp::all_reduce, row.bytes);
      } catch (const OverflowError& e) {  // a size whose modelled time is past the clock (fuzz_nccl_log)
        throw UserError(SourceLocation{log.file, row.line, 1}, "size", std::to_string(row.bytes.n) + " bytes: " + e.what());
      }
      Point p{&log, &row, nodes, c.algorithm, c.protocol.value_or(algo::Protocol::simple), c.terms};
      (nodes > 1 ? network : intra).push_back(p);
    }
    if (at_floor == static_cast<int>(log.rows.size())) {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "every row is faster than %.1f us, the launch floor of %d GPU(s) per host thread: nothing the "
                    "collective did is left to fit (are the times in microseconds?)",
                    floor, log.gpus_per_thread);
      throw UserError(SourceLocation{log.file, log.rows.front().line, 1}, "", msg);
    }
    if (at_floor > 0) {
      char note[240];
      std::snprintf(note, sizeof note,
                    "%s: %d row(s) at the launch floor (below %.1f us: nGpus %d x up to %.2f us of NCCL host calls per "
                    "iteration) not fitted",
                    log.file.c_str(), at_floor, floor, log.gpus_per_thread, kNcclHostCallHighUs);
      prof.provenance.assumed.push_back(note);
    }
    prof.provenance.inputs.push_back(log.file);
    if (!log.nccl_version.empty() && prof.provenance.nccl_version.find(log.nccl_version) == std::string::npos)
      prof.provenance.nccl_version += (prof.provenance.nccl_version.empty() ? "" : ", ") + log.nccl_version;
  }
  prof.provenance.algorithm = algorithm;
  prof.intra = fit_scope(intra, "one-node");
  prof.network = fit_scope(network, "multi-node");
  prof.provenance.method =
      std::string("weighted least squares (Eigen, 1/t weights) of t - L_nccl on [1, B_line, sqrt(S/MiB)] per scope; ") +
      "algorithm and protocol per log as provenance.assumed says (the log's NCCL_ALGO/NCCL_PROTO and tuner plugin; "
      "otherwise aws-ofi-nccl's tuner where it has tables, NCCL's tuning.cc model elsewhere)";
  // Each row's prediction is the time ddpsim gives it with the fitted profile: the collective
  // priced with the profile and timed on an idle network (as `ddpsim collective` does), not the
  // fitted formula itself. They differ where a negative alpha would make the formula negative:
  // the schedule never charges less than zero latency (CollectiveModel::apply_profile). A
  // negative prediction was written once and not read back (fuzz_nccl_log, 2026-11-25).
  // Its held-out prediction is the same with its scope fitted without it (leave_one_out).
  std::map<const LogRow*, sim::ScopeParams> held_out;
  for (const auto* pts : {&intra, &network}) {
    const std::vector<std::optional<sim::ScopeParams>> loo = leave_one_out(*pts);
    for (std::size_t i = 0; i < pts->size(); ++i)
      if (loo[i]) held_out.emplace((*pts)[i].row, *loo[i]);
  }
  std::map<const LogRow*, std::pair<double, double>> predicted;  // in sample, held out (0: none)
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const auto [nodes, gpn] = log_shape(instance, logs[i]);
    const Topology topo(as_run(instance, logs[i]), nodes, gpn);
    sim::AnalyticalBackend idle(topo);
    const auto timed = [&](const sim::CollectiveModel& m, const LogRow& row) {  // throws OverflowError past the clock
      return as_benchmarked_us(logs[i], sim::time_alone_us(m.price(algo::CollectiveOp::all_reduce, row.bytes), idle));
    };
    options[i].profile = prof;
    const sim::CollectiveModel model(topo, options[i]);
    for (const LogRow& row : logs[i].rows) {
      if (at_launch_floor(logs[i], row)) continue;  // not fitted (above)
      double in_sample = 0;
      try {
        in_sample = timed(model, row);
      } catch (const OverflowError& e) {
        throw UserError(SourceLocation{logs[i].file, row.line, 1}, "size", std::to_string(row.bytes.n) + " bytes: " + e.what());
      }
      double out_of_sample = 0;
      if (const auto h = held_out.find(&row); h != held_out.end()) {
        sim::CollectiveOptions without = options[i];
        (nodes > 1 ? without.profile.network : without.profile.intra) = h->second;
        try {
          out_of_sample = timed(sim::CollectiveModel(topo, without), row);
        } catch (const OverflowError&) {
          out_of_sample = 0;  // the refit's time is past the clock: no held-out prediction for this row
        }
      }
      predicted[&row] = {in_sample, out_of_sample};
    }
  }
  for (const auto* pts : {&intra, &network})
    for (const Point& p : *pts) {
      const auto [in_sample, out_of_sample] = predicted.at(p.row);
      sim::Residual r{p.log->file, p.row->line, p.nodes, p.row->bytes.n, p.row->time_us, in_sample,
                      std::string(p.algorithm->name()), std::string(to_string(p.protocol))};
      r.held_out_us = out_of_sample;
      prof.residuals.push_back(std::move(r));
    }
  prof.warnings = profile_warnings(prof, !instance.nic.gpudirect);
  return prof;
}

}  // namespace ddpsim::calibrate
