#include "sim/study/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <list>
#include <set>

#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "sim/study/sweep.hpp"
#include "sim/study/twin.hpp"

namespace ddpsim::sim {
namespace {

std::string money(double usd)
{
  char buf[48];
  std::snprintf(buf, sizeof buf, "$%.2f", usd);
  return buf;
}

std::string hours(double s)
{
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f h", s / 3600);
  return buf;
}

// A variant's rows as one message: a count, then each row length-prefixed (sweep.hpp's format).
std::string encode_rows(const std::vector<ConfigResult>& rows)
{
  std::string out = std::to_string(rows.size()) + "\n";
  for (const ConfigResult& r : rows) {
    const std::string one = encode_row(r);  // with the uncalibrated step (the twin sets it)
    out += std::to_string(one.size()) + "\n" + one;
  }
  return out;
}

std::vector<ConfigResult> decode_rows(const std::string& in)
{
  std::size_t pos = 0;
  auto number = [&] {
    const std::size_t nl = in.find('\n', pos);
    DDPSIM_CHECK(nl != std::string::npos, "truncated plan result");
    const std::size_t v = std::stoull(in.substr(pos, nl - pos));
    pos = nl + 1;
    return v;
  };
  std::vector<ConfigResult> rows(number());
  for (ConfigResult& r : rows) {
    const std::size_t n = number();
    DDPSIM_CHECK(pos + n <= in.size(), "truncated plan result");
    r = decode_row(in.substr(pos, n));
    pos += n;
  }
  DDPSIM_CHECK(pos == in.size(), "trailing bytes in a plan result");
  return rows;
}

}  // namespace

double judged_time_s(const ConfigResult& r, const Goal& g)
{
  return g.at_p90 && r.total_band.set ? r.total_band.p90 : r.total_time_s;
}

double judged_cost_usd(const ConfigResult& r, const Goal& g)
{
  return g.at_p90 && r.cost_band.set ? r.cost_band.p90 : r.cost_usd;
}

std::vector<std::vector<ConfigResult>> evaluate_variants(const std::vector<PlanVariant>& variants, int jobs,
                                                         const PlanProgress& progress, bool intervals)
{
  const int samples = intervals ? kDefaultSamples : 0;
  std::vector<std::vector<ConfigResult>> out;
  out.reserve(variants.size());
  if (jobs <= 1 || variants.size() <= 1) {
    for (const PlanVariant& v : variants) {
      out.push_back(predict(v.spec, RunOptions{}, samples).results);
      if (progress) progress(out.size(), variants.size());
    }
    return out;
  }
  // Chunks of consecutive variants, one child each, at most `jobs` at once, each collected as it
  // finishes and put in its place. A child per chunk rather than per variant: 1,600 forks (and
  // their fresh heaps) cost more system time than the variants' own work (docs/performance.md);
  // ~16 chunks per job still balance uneven variants, as long as a finished chunk need not wait
  // behind a slower one started before it (intervals make variants uneven: 1 run or 17).
  const std::size_t chunk = std::max<std::size_t>(1, variants.size() / (static_cast<std::size_t>(jobs) * 16));
  std::list<std::pair<std::size_t, ChildProcess>> running;  // (first variant of the chunk, its child)
  out.resize(variants.size());
  std::size_t next = 0, done = 0;
  while (done < variants.size()) {
    while (next < variants.size() && running.size() < static_cast<std::size_t>(jobs)) {
      const std::size_t from = next, to = std::min(variants.size(), next + chunk);
      next = to;
      running.emplace_back(from, ChildProcess([&variants, from, to, samples] {
                           std::string all;
                           for (std::size_t v = from; v < to; ++v) {
                             const std::string one = encode_rows(predict(variants[v].spec, RunOptions{}, samples).results);
                             all += std::to_string(one.size()) + "\n" + one;
                           }
                           return all;
                         }));
    }
    auto [v, all] = collect_first(running);
    for (std::size_t pos = 0; pos < all.size(); ++v, ++done) {
      const std::size_t nl = all.find('\n', pos);
      DDPSIM_CHECK(nl != std::string::npos && v < variants.size(), "truncated plan chunk");
      const std::size_t n = std::stoull(all.substr(pos, nl - pos));
      DDPSIM_CHECK(nl + 1 + n <= all.size(), "truncated plan chunk");
      out[v] = decode_rows(all.substr(nl + 1, n));
      pos = nl + 1 + n;
    }
    if (progress) progress(done, variants.size());
  }
  DDPSIM_CHECK(done == variants.size() && next == variants.size(), "plan chunks returned a different number of variants");
  return out;
}

PlanFrame plan_frame(const std::vector<PlanVariant>& variants)
{
  PlanFrame f;
  if (!variants.empty()) {
    f.name = variants.front().spec.name;
    f.model = variants.front().spec.model.name;
    f.parameters = variants.front().spec.model.parameter_count();
  }
  for (const PlanVariant& v : variants)
    f.variants.push_back(VariantInfo{v.label, v.spec.cluster.instance.name, v.spec.cluster.instance.price_source, v.priced,
                                     applied_knobs(v.spec).empty() ? "" : calibration_name(v.spec)});
  return f;
}

PlanReport decide(const PlanFrame& frame, const std::vector<std::vector<ConfigResult>>& results, const Goal& goal)
{
  const std::vector<VariantInfo>& variants = frame.variants;
  DDPSIM_CHECK(variants.size() == results.size(), "plan results do not match the variants");
  PlanReport rep;
  rep.goal = goal;
  rep.name = frame.name;
  rep.model = frame.model;
  rep.parameters = frame.parameters;
  std::set<std::string> seen;
  const std::string where = goal.at_p90 ? " at p90" : "";
  for (std::size_t v = 0; v < variants.size(); ++v) {
    rep.labels.push_back(variants[v].label);
    rep.calibrated.push_back(!variants[v].calibration.empty());
    if (rep.calibrated.back()) rep.calibration = variants[v].calibration;
    const std::string& src = variants[v].price_source;
    if (!src.empty() && seen.insert(variants[v].instance + ": " + src).second)
      rep.price_sources.push_back(variants[v].instance + ": " + src);
    for (const ConfigResult& r : results[v]) {
      PlanRow row{r, v, {}, false};
      if (!r.fits) row.excluded = "does not fit: " + memory_need(r.memory);
      else if (!variants[v].priced) row.excluded = "no price: SageMaker ml.* rates are not in the catalog (give pricing:)";
      else if (goal.deadline_s && judged_time_s(r, goal) > *goal.deadline_s)
        row.excluded = "misses the deadline" + where + ": " + hours(judged_time_s(r, goal)) + " > " + hours(*goal.deadline_s);
      else if (goal.budget_usd && judged_cost_usd(r, goal) > *goal.budget_usd)
        row.excluded = "over budget" + where + ": " + money(judged_cost_usd(r, goal)) + " > " + money(*goal.budget_usd);
      rep.rows.push_back(std::move(row));
    }
  }
  // Pareto frontier over (total time, cost) among the priced rows that fit: no other such row is
  // at least as good in both and better in one.
  auto runnable = [&](const PlanRow& r) { return r.result.fits && variants[r.variant].priced; };
  for (PlanRow& a : rep.rows) {
    if (!runnable(a)) continue;
    a.pareto = std::none_of(rep.rows.begin(), rep.rows.end(), [&](const PlanRow& b) {
      if (&a == &b || !runnable(b)) return false;
      const double at = judged_time_s(a.result, goal), ac = judged_cost_usd(a.result, goal);
      const double bt = judged_time_s(b.result, goal), bc = judged_cost_usd(b.result, goal);
      // Issue 20: of configurations with the same time and cost (zero-3 and fsdp), the first stands for them.
      return bt <= at && bc <= ac && (bt < at || bc < ac || &b < &a);
    });
  }
  // The recommendation: the best candidate for the goal, ties broken by the other measure, then
  // by order (deterministic).
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const PlanRow& r = rep.rows[i];
    if (!r.excluded.empty()) continue;
    if (!rep.recommended) {
      rep.recommended = i;
      continue;
    }
    const ConfigResult& b = rep.rows[*rep.recommended].result;
    const double tr = judged_time_s(r.result, goal), cr = judged_cost_usd(r.result, goal);
    const double tb = judged_time_s(b, goal), cb = judged_cost_usd(b, goal);
    const double key_r = goal.minimize == Minimize::cost ? cr : tr, key_b = goal.minimize == Minimize::cost ? cb : tb;
    const double tie_r = goal.minimize == Minimize::cost ? tr : cr, tie_b = goal.minimize == Minimize::cost ? tb : cb;
    if (key_r < key_b || (key_r == key_b && tie_r < tie_b)) rep.recommended = i;
  }
  if (rep.recommended) {
    const PlanRow& r = rep.rows[*rep.recommended];
    const ConfigResult& c = r.result;
    std::string what = goal.minimize == Minimize::cost ? "the cheapest" : "the fastest";
    std::string within;
    if (goal.deadline_s) within += " within " + hours(*goal.deadline_s);
    if (goal.budget_usd) within += std::string(within.empty() ? " within " : " and ") + money(*goal.budget_usd);
    char eff[32];
    std::snprintf(eff, sizeof eff, "%.0f%%", c.scaling_efficiency * 100);
    // At p90 the judged values lead, with the central ones beside.
    const std::string time_cost =
        goal.at_p90 ? hours(judged_time_s(c, goal)) + ", " + money(judged_cost_usd(c, goal)) + " at p90 (central " +
                          hours(c.total_time_s) + ", " + money(c.cost_usd) + ")"
                    : hours(c.total_time_s) + ", " + money(c.cost_usd);
    rep.why = what + " configuration" + within + (goal.at_p90 ? " at the p90 of its interval" : "") +
              " that fits in memory: " + time_cost + "; the step is " + c.bound + "-bound; scaling efficiency " + eff +
              " against 1st row of its variant; memory " + memory_need(c.memory) + (r.pareto ? "; on the Pareto frontier" : "");
  }
  return rep;
}

}  // namespace ddpsim::sim
