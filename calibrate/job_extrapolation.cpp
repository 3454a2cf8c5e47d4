#include "calibrate/job_extrapolation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include "calibrate/plausibility.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

// Subsets of `knobs`, largest first (original order kept inside each), so that a forward fit
// keeps as many of the real fit's knobs as the earlier rows determine.
std::vector<std::vector<std::string>> subsets_largest_first(const std::vector<std::string>& knobs)
{
  const std::size_t n = std::min<std::size_t>(knobs.size(), 8);
  std::vector<std::vector<std::string>> out;
  for (std::size_t size = n; size >= 1; --size)
    for (unsigned mask = 1; mask < (1u << n); ++mask) {
      if (static_cast<std::size_t>(__builtin_popcount(mask)) != size) continue;
      std::vector<std::string> s;
      for (std::size_t k = 0; k < n; ++k)
        if (mask & (1u << k)) s.push_back(knobs[k]);
      out.push_back(s);
    }
  return out;
}

std::string joined(const std::vector<std::string>& v)
{
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The first fit of `o` with a subset of `knobs` (largest first) that the rows determine and
// `accept` keeps; none when no subset does.
template <class Accept>
std::optional<JobFit> fit_largest(const sim::ScenarioSpec& spec, JobFitOptions o, const std::vector<std::string>& knobs,
                                  Accept accept)
{
  for (const std::vector<std::string>& subset : subsets_largest_first(knobs)) {
    o.knobs = subset;
    try {
      JobFit f = fit_job(spec, o);
      if (accept(f)) return f;
    } catch (const UserError&) {
      // these rows cannot determine these knobs: try fewer
    }
  }
  return std::nullopt;
}

std::vector<std::string> names(const JobFit& f)
{
  std::vector<std::string> out;
  for (const FittedKnob& k : f.knobs) out.push_back(k.name);
  return out;
}

}  // namespace

ExtrapolationError extrapolation_error(const sim::ScenarioSpec& spec, const JobFitOptions& options, const JobFit& fit)
{
  ExtrapolationError out;
  std::set<int> fitted_nodes;
  for (const RowFit& r : fit.rows)
    if (r.fitted) fitted_nodes.insert(r.obs.nodes);
  if (fitted_nodes.empty()) return out;
  out.fitted_nodes_max = *fitted_nodes.rbegin();
  double sum = 0;
  for (std::size_t i = 0; i < fit.rows.size(); ++i) {
    const RowFit& target = fit.rows[i];
    if (!target.fitted || target.obs.nodes == *fitted_nodes.begin()) continue;
    JobFitOptions o = options;
    o.fit_on_nodes.assign(fitted_nodes.begin(), fitted_nodes.lower_bound(target.obs.nodes));
    const int reach_from = o.fit_on_nodes.back();
    const std::optional<JobFit> forward = fit_largest(spec, o, options.knobs, [](const JobFit&) { return true; });
    if (!forward) continue;
    DDPSIM_CHECK(forward->rows.size() == fit.rows.size(), "extrapolation: a forward fit saw different rows");
    const double e = std::log(forward->rows[i].predicted / target.obs.value);
    const double d = std::log2(static_cast<double>(target.obs.nodes) / reach_from);
    if (!std::isfinite(e) || !(d > 0)) continue;
    sum += e * e / d;
    ++out.rows;
    char buf[200];
    std::snprintf(buf, sizeof buf, "nodes %d from %d (%s): %+.1f%%", target.obs.nodes, reach_from, joined(names(*forward)).c_str(),
                  (std::exp(e) - 1) * 100);
    out.from += (out.from.empty() ? "forward fits: " : "; ") + std::string(buf);
  }
  if (out.rows > 0) out.ln_sd_per_doubling = std::sqrt(sum / out.rows);
  return out;
}

PlausibleAlternative plausible_alternative(const sim::ScenarioSpec& spec, const JobFitOptions& options, const JobFit& fit)
{
  PlausibleAlternative out;
  std::vector<std::string> kept;
  for (const FittedKnob& k : fit.knobs)
    (knob_warning(k.name, k.value, k.start).empty() ? kept : out.without).push_back(k.name);
  if (out.without.empty()) return out;
  out.how = "the fit without " + joined(out.without) + ": ";
  const auto plausible = [](const JobFit& f) { return job_warnings(f).empty(); };
  if (const std::optional<JobFit> refit = kept.empty() ? std::nullopt : fit_largest(spec, options, kept, plausible)) {
    for (const FittedKnob& k : refit->knobs) {
      out.knobs.push_back(k.name);
      out.values.push_back(k.value);
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s%s %.4g", out.knobs.size() > 1 ? ", " : "", k.name.c_str(), k.value);
      out.how += buf;
    }
    out.how += " (refitted on the same rows)";
    return out;
  }
  out.how += "no plausible refit of the other knobs; the scenario as written";
  return out;
}

}  // namespace ddpsim::calibrate
