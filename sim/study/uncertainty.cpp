#include "sim/study/uncertainty.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>

#include "sim/network/shape_cache.hpp"  // issue 21
#include "sim/study/knobs.hpp"
#include "core/error.hpp"
#include "core/quantile.hpp"
#include "core/random.hpp"

namespace ddpsim::sim {
namespace {

// p10 and p90 of `v`, carried from the analytical central value onto the reported one.
ConfigResult::Band band(const std::vector<double>& v, double reported, double central)
{
  const double scale = central > 0 ? reported / central : 1.0;
  return ConfigResult::Band{true, quantile(v, 0.1) * scale, quantile(v, 0.9) * scale};
}

// `b` widened to also hold `other`, the second model's value.
ConfigResult::Band envelope(ConfigResult::Band b, double other)
{
  if (!b.set || !std::isfinite(other)) return b;
  b.p10 = std::min(b.p10, other);
  b.p90 = std::max(b.p90, other);
  return b;
}

// The alternative's value carried onto the reported one, as band() carries the samples.
double carried(double alt, double reported, double central) { return central > 0 ? alt * reported / central : alt; }

}  // namespace

double Uncertainty::model_error_sd_at(int nodes) const
{
  double var = model_error_ln_sd * model_error_ln_sd;
  if (extrapolation_ln_sd > 0 && extrapolation_beyond_nodes > 0 && nodes > extrapolation_beyond_nodes)
  {
    const double d = std::log2(static_cast<double>(nodes) / extrapolation_beyond_nodes);
    var += extrapolation_ln_sd * extrapolation_ln_sd * d * d;
  }
  return std::sqrt(var);
}

Dimension assumed_range(const std::string& knob_name, double value, double low_factor, double high_factor)
{
  Dimension d;
  d.knob = knob_name;
  d.source = "catalog [assume]";
  d.normal = false;
  d.center = std::log(value);
  d.low = std::log(value * low_factor);
  d.high = std::log(value * high_factor);
  return d;
}

void push_normal(Uncertainty& u, const Dimension& d, double var)
{
  u.dims.push_back(d);
  const Eigen::Index n = u.cov.rows();
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(n + 1, n + 1);
  if (n > 0) cov.topLeftCorner(n, n) = u.cov;
  cov(n, n) = var;
  u.cov = cov;
}

std::vector<std::vector<double>> latin_hypercube(std::size_t n, std::size_t d, std::uint64_t seed)
{
  SplitMix64 rng{seed};
  std::vector<std::vector<double>> pts(n, std::vector<double>(d));
  std::vector<std::size_t> perm(n);
  for (std::size_t k = 0; k < d; ++k) {
    std::iota(perm.begin(), perm.end(), 0);
    for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng.next() % i]);  // Fisher-Yates
    for (std::size_t i = 0; i < n; ++i)
      pts[i][k] = (static_cast<double>(perm[i]) + rng.uniform()) / static_cast<double>(n);
  }
  return pts;
}

bool uncertainty_matters(const sim::ScenarioSpec& base, const Uncertainty& u, std::shared_ptr<ShapeCache> shapes)
{
  if (u.empty()) return false;
  if (u.has_model_error()) return true;
  std::vector<double> sd(u.dims.size(), 0.0);
  for (std::size_t k = 0, j = 0; k < u.dims.size(); ++k) {
    if (!u.dims[k].normal) continue;
    if (!u.dims[k].screened) return true;
    const auto jj = static_cast<Eigen::Index>(j++);
    sd[k] = std::sqrt(std::max(u.cov(jj, jj), 0.0));
  }
  sim::RunOptions quiet;
  quiet.engine = sim::EngineKind::analytical;
  quiet.shapes = std::move(shapes);
  auto at = [&](int corner) {  // -1 low, 0 central, +1 high
    sim::ScenarioSpec s = base;
    for (std::size_t k = 0; k < u.dims.size(); ++k) {
      const Dimension& d = u.dims[k];
      const double ln = d.normal ? d.ln_at(2.0 * corner * sd[k]) : corner < 0 ? d.low : corner > 0 ? d.high : d.center;
      apply(d.knob, s, std::exp(ln));
    }
    return sim::run_scenario(s, quiet);
  };
  const sim::ScenarioReport central = at(0);
  auto same = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); };
  for (int corner : {-1, 1}) {
    const sim::ScenarioReport r = at(corner);
    if (r.results.size() != central.results.size()) return true;
    for (std::size_t i = 0; i < r.results.size(); ++i) {
      const sim::ConfigResult &a = r.results[i], &c = central.results[i];
      if (!same(a.step_time_s, c.step_time_s) || !same(a.samples_per_s, c.samples_per_s) ||
          !same(a.total_time_s, c.total_time_s))
        return true;
    }
  }
  return false;
}

void add_intervals(const ScenarioSpec& base, ScenarioReport& report, const Uncertainty& u,
                   const RunOptions& run, int samples, std::uint64_t seed)
{
  if (u.empty() || samples < 2) return;
  std::vector<std::size_t> normals;
  for (std::size_t k = 0; k < u.dims.size(); ++k)
    if (u.dims[k].normal) normals.push_back(k);
  DDPSIM_CHECK(static_cast<std::size_t>(u.cov.rows()) == normals.size(), "uncertainty: covariance size mismatch");
  Eigen::MatrixXd chol = Eigen::MatrixXd::Zero(u.cov.rows(), u.cov.cols());
  if (u.cov.rows() > 0) {
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(u.cov);  // semi-definite safe: L sqrt(D)
    Eigen::MatrixXd l = ldlt.matrixL();
    Eigen::VectorXd dvec = ldlt.vectorD().cwiseMax(0).cwiseSqrt();
    chol = ldlt.transpositionsP().transpose() * (l * dvec.asDiagonal());
  }
  const boost::math::normal standard;
  const bool model_error = u.has_model_error();  // one more dimension, the last
  const auto pts = latin_hypercube(static_cast<std::size_t>(samples), u.dims.size() + (model_error ? 1 : 0), seed);
  const std::size_t m = report.results.size();
  std::vector<std::vector<double>> step(m), thr(m), total(m), speed(m), cost(m);
  // Samples run on the analytical engine, in this process: the flow engine would cost seconds per
  // sample. The band is the samples' spread relative to the analytical run at the central values,
  // applied to the reported value (identical for an analytical report).
  RunOptions quiet;
  quiet.engine = EngineKind::analytical;
  quiet.shard_index = run.shard_index, quiet.shard_count = run.shard_count;  // issue 11: a shard samples its rows
  quiet.shapes = run.shapes;
  ScenarioSpec central = base;
  for (const Dimension& d : u.dims) apply(d.knob, central, std::exp(d.center));
  const ScenarioReport nominal = run_scenario(central, quiet);
  DDPSIM_CHECK(nominal.results.size() == m, "uncertainty: the central run has different configurations");
  (void)run;
  for (const auto& p : pts) {
    Eigen::VectorXd z(static_cast<Eigen::Index>(normals.size()));
    for (std::size_t i = 0; i < normals.size(); ++i)
      z(static_cast<Eigen::Index>(i)) = boost::math::quantile(standard, p[normals[i]]);
    const Eigen::VectorXd dz = chol * z;
    ScenarioSpec s = base;
    for (std::size_t k = 0, ni = 0; k < u.dims.size(); ++k) {
      const Dimension& d = u.dims[k];
      const double lnv = d.normal ? d.ln_at(dz(static_cast<Eigen::Index>(ni++))) : d.low + p[k] * (d.high - d.low);
      apply(d.knob, s, std::exp(lnv));
    }
    const ScenarioReport r = run_scenario(s, quiet);
    DDPSIM_CHECK(r.results.size() == m, "uncertainty: a sample ran different configurations");
    const double z_model = model_error ? boost::math::quantile(standard, p.back()) : 0.0;
    for (std::size_t i = 0; i < m; ++i) {
      const double f = model_error ? std::exp(u.model_error_sd_at(r.results[i].nodes) * z_model) : 1.0;
      step[i].push_back(r.results[i].step_time_s * f);
      thr[i].push_back(r.results[i].samples_per_s / f);
      total[i].push_back(r.results[i].total_time_s * f);
      speed[i].push_back(r.results[i].speedup);
      cost[i].push_back(r.results[i].cost_usd * f);
    }
  }
  for (std::size_t i = 0; i < m; ++i) {
    ConfigResult& c = report.results[i];
    const ConfigResult& n = nominal.results[i];
    c.step_band = band(step[i], c.step_time_s, n.step_time_s);
    c.samples_band = band(thr[i], c.samples_per_s, n.samples_per_s);
    c.total_band = band(total[i], c.total_time_s, n.total_time_s);
    c.speedup_band = band(speed[i], c.speedup, n.speedup);
    c.cost_band = band(cost[i], c.cost_usd, n.cost_usd);
  }
  if (u.replaces.empty()) return;
  ScenarioSpec alt = base;  // the central values, the fit's knobs replaced by the alternative's
  for (const Dimension& d : u.dims)
    if (std::find(u.replaces.begin(), u.replaces.end(), d.knob) == u.replaces.end()) apply(d.knob, alt, std::exp(d.center));
  for (const auto& [knob_name, value] : u.alternative) apply(knob_name, alt, value);
  const ScenarioReport other = run_scenario(alt, quiet);
  DDPSIM_CHECK(other.results.size() == m, "uncertainty: the alternative fit ran different configurations");
  for (std::size_t i = 0; i < m; ++i) {
    ConfigResult& c = report.results[i];
    const ConfigResult &n = nominal.results[i], &o = other.results[i];
    c.step_band = envelope(c.step_band, carried(o.step_time_s, c.step_time_s, n.step_time_s));
    c.samples_band = envelope(c.samples_band, carried(o.samples_per_s, c.samples_per_s, n.samples_per_s));
    c.total_band = envelope(c.total_band, carried(o.total_time_s, c.total_time_s, n.total_time_s));
    c.speedup_band = envelope(c.speedup_band, carried(o.speedup, c.speedup, n.speedup));
    c.cost_band = envelope(c.cost_band, carried(o.cost_usd, c.cost_usd, n.cost_usd));
  }
}

}  // namespace ddpsim::sim
