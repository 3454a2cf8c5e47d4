#include "calibrate/job_fit.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unsupported/Eigen/NonLinearOptimization>

#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

constexpr double kStep = 1e-3;          // ln-space finite-difference step (0.1 %)
constexpr double kMaxCondition = 1e8;   // beyond this J^T J is numerically singular
constexpr double kMaxCorrelation = 0.95;
const double kMaxLnSpan = std::log(1e4);  // how far from the scenario's value the fit may look

std::string fixed(double v, int digits = 3)
{
  std::ostringstream o;
  o.precision(digits);
  o << v;
  return o.str();
}

// The least-squares problem in ln-space over the fitted rows.
struct Problem {
  const sim::ScenarioSpec& spec;
  const std::vector<std::string>& names;
  std::vector<sim::Observation> rows;
  const sim::RunOptions& run;
  int* evaluations;
  Eigen::VectorXd x0;  // ln of the scenario's values: the search stays within x1e-4..x1e4 of them

  Eigen::VectorXd residuals(const Eigen::VectorXd& x) const
  {
    ++*evaluations;
    std::vector<double> v(x.data(), x.data() + x.size());
    for (std::size_t k = 0; k < v.size(); ++k) {
      const double c = x0(static_cast<Eigen::Index>(k));
      v[k] = std::clamp(v[k], c - kMaxLnSpan, c + kMaxLnSpan);
    }
    const std::vector<double> pred = predict_rows(apply_fit(spec, names, v), rows, run);
    Eigen::VectorXd r(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) r(static_cast<Eigen::Index>(i)) = std::log(pred[i] / rows[i].value);
    return r;
  }
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& x) const
  {
    Eigen::MatrixXd j(static_cast<Eigen::Index>(rows.size()), x.size());
    for (Eigen::Index k = 0; k < x.size(); ++k) {
      Eigen::VectorXd up = x, down = x;
      up(k) += kStep;
      down(k) -= kStep;
      j.col(k) = (residuals(up) - residuals(down)) / (2 * kStep);
    }
    return j;
  }
};

// Eigen's MINPACK port wants a functor with the problem's sizes, f(x) and its Jacobian.
struct Functor {
  using Scalar = double;
  enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };
  using InputType = Eigen::VectorXd;
  using ValueType = Eigen::VectorXd;
  using JacobianType = Eigen::MatrixXd;
  const Problem& p;
  int inputs() const { return static_cast<int>(p.names.size()); }
  int values() const { return static_cast<int>(p.rows.size()); }
  int operator()(const Eigen::VectorXd& x, Eigen::VectorXd& f) const
  {
    f = p.residuals(x);
    return 0;
  }
  int df(const Eigen::VectorXd& x, Eigen::MatrixXd& j) const
  {
    j = p.jacobian(x);
    return 0;
  }
};

Eigen::VectorXd minimize(const Problem& p, Eigen::VectorXd x)
{
  Functor f{p};
  Eigen::LevenbergMarquardt<Functor> lm(f);
  lm.parameters.ftol = 1e-12;
  lm.parameters.xtol = 1e-10;
  lm.parameters.maxfev = 200;
  lm.minimize(x);
  for (Eigen::Index k = 0; k < x.size(); ++k) x(k) = std::clamp(x(k), p.x0(k) - kMaxLnSpan, p.x0(k) + kMaxLnSpan);
  return x;
}

// The step is a max() of the input pipeline and the GPU side, so the residuals are only piecewise
// smooth: from the scenario's values a knob can have no slope at all (e.g. the network while the
// loader hides it). The fit therefore starts from a small grid around them, each knob at x0.1, x1
// and x10 (every combination up to 3 knobs, one knob at a time beyond), and keeps the start whose
// optimum has the smallest sum of squares (the first on a tie: deterministic).
Eigen::VectorXd multi_start(const Problem& p, const Eigen::VectorXd& x0)
{
  const Eigen::Index n = x0.size();
  const double step = std::log(10.0);
  std::vector<Eigen::VectorXd> starts;
  if (n <= 3) {
    int combos = 1;
    for (Eigen::Index k = 0; k < n; ++k) combos *= 3;
    for (int c = 0; c < combos; ++c) {
      Eigen::VectorXd s = x0;
      for (Eigen::Index k = 0, rest = c; k < n; ++k, rest /= 3) s(k) += step * static_cast<double>(rest % 3 == 2 ? -1 : rest % 3);
      starts.push_back(s);
    }
  } else {
    starts.push_back(x0);
    for (Eigen::Index k = 0; k < n; ++k)
      for (const double d : {step, -step}) {
        Eigen::VectorXd s = x0;
        s(k) += d;
        starts.push_back(s);
      }
  }
  Eigen::VectorXd best = x0;
  double best_rss = INFINITY;
  for (const Eigen::VectorXd& s : starts) {
    const Eigen::VectorXd x = minimize(p, s);
    const double rss = p.residuals(x).squaredNorm();
    if (rss < best_rss * (1 - 1e-9)) {
      best_rss = rss;
      best = x;
    }
  }
  return best;
}

std::string knob_list(const std::vector<std::string>& names, const Eigen::VectorXd& weights)
{
  std::string out;
  for (Eigen::Index k = 0; k < weights.size(); ++k)
    if (std::abs(weights(k)) > 0.3) out += (out.empty() ? "" : " and ") + names[static_cast<std::size_t>(k)];
  return out;
}

// A knob that ends at the end of its search range (x1e-4 or x1e4 of the scenario's value) has not
// been fitted: the rows pull it past any value the model allows (a per-step overhead when the larger
// run is faster per sample than the model can make it), or the search from x0.1-x10 of the start
// wandered off towards a flat end (seen with per-step costs of seconds against a 1 ms start). Said
// as such, not as "no effect" (its slope vanishes there) nor as a number.
void refuse_at_search_bound(const Eigen::VectorXd& x, const Eigen::VectorXd& x0, const std::vector<std::string>& names)
{
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const bool low = x(k) <= x0(k) - kMaxLnSpan + 1e-6, high = x(k) >= x0(k) + kMaxLnSpan - 1e-6;
    if (!low && !high) continue;
    const std::string& name = names[static_cast<std::size_t>(k)];
    throw UserError("calibrate job: the fitted rows drive " + name + " to the " + (low ? "lower" : "upper") +
                    " end of its search (x" + (low ? "1e-4" : "1e4") + " of the scenario's value) from every start: they ask for " +
                    (low ? "less than none of it" : "more than it can give") +
                    ", or its best value lies far (beyond x10) from the start and the search did not reach it; fit another "
                    "knob, or check the rows against the scenario");
  }
}

// Refuses a Jacobian from which the knobs cannot be read: a dead column, rank deficiency, or two
// knobs that move the rows alike. Fills condition and correlation.
void check_identifiable(const Eigen::MatrixXd& j, const std::vector<std::string>& names, JobFit& fit)
{
  for (Eigen::Index k = 0; k < j.cols(); ++k)
    if (j.col(k).norm() < 1e-6)
      throw UserError("calibrate job: " + names[static_cast<std::size_t>(k)] +
                      " has no effect on the fitted rows (e.g. a network knob on one-node rows); fit it on rows it changes, or drop it");
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(j, Eigen::ComputeFullV);
  const Eigen::VectorXd s = svd.singularValues();
  fit.condition = s(s.size() - 1) > 0 ? s(0) / s(s.size() - 1) : INFINITY;
  if (!(fit.condition < kMaxCondition)) {
    const Eigen::VectorXd v = svd.matrixV().col(s.size() - 1);
    const std::string which = knob_list(names, v);
    if (which.find(" and ") == std::string::npos)
      throw UserError("calibrate job: " + which + " has (almost) no effect on the fitted rows at the best fit (Jacobian condition number " +
                      fixed(fit.condition) + "; e.g. the step is bound by something else); drop it or fit rows it changes");
    throw UserError("calibrate job: the rows cannot tell " + which + " apart (Jacobian condition number " +
                    fixed(fit.condition) + "); fix one of them or add rows that move them differently");
  }
  const Eigen::MatrixXd inv = (j.transpose() * j).inverse();
  fit.correlation = inv;
  for (Eigen::Index a = 0; a < inv.rows(); ++a)
    for (Eigen::Index b = 0; b < inv.cols(); ++b) fit.correlation(a, b) = inv(a, b) / std::sqrt(inv(a, a) * inv(b, b));
  for (Eigen::Index a = 0; a < inv.rows(); ++a)
    for (Eigen::Index b = a + 1; b < inv.cols(); ++b)
      if (std::abs(fit.correlation(a, b)) > kMaxCorrelation)
        throw UserError("calibrate job: the rows cannot tell " + names[static_cast<std::size_t>(a)] + " and " +
                        names[static_cast<std::size_t>(b)] + " apart (correlation " + fixed(fit.correlation(a, b)) +
                        "); fix one of them or add rows that move them differently");
}

}  // namespace

JobFit fit_job(const sim::ScenarioSpec& spec, const JobFitOptions& opt)
{
  JobFit fit;
  fit.context = sim::context_of(spec);
  if (opt.knobs.empty()) throw UserError("--fit: name at least one knob");
  for (std::size_t a = 0; a < opt.knobs.size(); ++a) {
    sim::knob(opt.knobs[a]);
    for (std::size_t b = 0; b < a; ++b)
      if (opt.knobs[a] == opt.knobs[b]) throw UserError("--fit: " + opt.knobs[a] + " is named twice");
  }
  std::vector<sim::Observation> fitted;
  for (const sim::Observation& o : spec.observations) {
    RowFit r;
    r.obs = o;
    r.fitted = opt.fit_on_nodes.empty() ||
               std::find(opt.fit_on_nodes.begin(), opt.fit_on_nodes.end(), o.nodes) != opt.fit_on_nodes.end();
    if (r.fitted) fitted.push_back(o);
    fit.rows.push_back(r);
  }
  const std::size_t p = opt.knobs.size();
  if (spec.observations.empty()) throw UserError("calibrate job: the scenario has no observed rows (observed:)");
  if (fitted.size() < p)
    throw UserError("calibrate job: " + std::to_string(fitted.size()) + " fitted row(s) cannot determine " +
                    std::to_string(p) + " knob(s); fit fewer knobs or more rows (--fit-on)");
  Eigen::VectorXd x0(static_cast<Eigen::Index>(p));
  for (std::size_t k = 0; k < p; ++k) x0(static_cast<Eigen::Index>(k)) = std::log(sim::start_value(opt.knobs[k], spec));
  Problem prob{spec, opt.knobs, fitted, opt.run, &fit.evaluations, x0};
  const Eigen::VectorXd x = multi_start(prob, x0);
  refuse_at_search_bound(x, x0, opt.knobs);
  const Eigen::MatrixXd j = prob.jacobian(x);
  check_identifiable(j, opt.knobs, fit);
  const Eigen::VectorXd r = prob.residuals(x);
  fit.dof = static_cast<int>(fitted.size() - p);
  fit.sigma_from_residuals = fit.dof > 0;
  fit.sigma = fit.dof > 0 ? std::sqrt(r.squaredNorm() / fit.dof) : opt.noise;
  fit.cov_log = fit.sigma * fit.sigma * (j.transpose() * j).inverse();
  for (std::size_t k = 0; k < p; ++k) {
    const auto kk = static_cast<Eigen::Index>(k);
    fit.knobs.push_back(FittedKnob{opt.knobs[k], std::exp(x0(kk)), std::exp(x(kk)), std::sqrt(fit.cov_log(kk, kk))});
  }
  for (const FittedKnob& k : fit.knobs) {
    const sim::Knob& def = sim::knob(k.name);
    if (!(k.value > def.lower && k.value <= def.upper))
      throw UserError("calibrate job: the fit needs " + k.name + " = " + fixed(k.value, 4) + ", outside its physical range (" +
                      fixed(def.lower) + ", " + fixed(def.upper) + "]: " + def.meaning +
                      "; the rows disagree with the scenario elsewhere (instance, fabric, framework or another knob)");
  }
  // Predictions of every row, before and after; leave-one-out over the fitted rows.
  std::vector<sim::Observation> all;
  for (const RowFit& rf : fit.rows) all.push_back(rf.obs);
  const std::vector<double> before = predict_rows(spec, all, opt.run);
  const std::vector<double> xv(x.data(), x.data() + x.size());
  const std::vector<double> after = predict_rows(apply_fit(spec, opt.knobs, xv), all, opt.run);
  for (std::size_t i = 0; i < all.size(); ++i) {
    fit.rows[i].uncalibrated = before[i];
    fit.rows[i].predicted = after[i];
  }
  if (fitted.size() > p) {
    for (RowFit& rf : fit.rows) {
      if (!rf.fitted) continue;
      std::vector<sim::Observation> rest;
      for (const sim::Observation& o : fitted)
        if (o.where != rf.obs.where || o.metric != rf.obs.metric) rest.push_back(o);
      Problem loo{spec, opt.knobs, rest, opt.run, &fit.evaluations, x0};
      const Eigen::VectorXd xl = minimize(loo, x);
      try {
        JobFit scratch;
        check_identifiable(loo.jacobian(xl), opt.knobs, scratch);
      } catch (const UserError&) {
        rf.loo_undetermined = true;  // the other rows do not determine the knobs: no honest prediction
        continue;
      }
      const std::vector<double> xlv(xl.data(), xl.data() + xl.size());
      rf.loo_predicted = predict_rows(apply_fit(spec, opt.knobs, xlv), {rf.obs}, opt.run).front();
    }
  }
  return fit;
}

}  // namespace ddpsim::calibrate
