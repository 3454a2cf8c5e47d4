#include "app/input/plan_loader.hpp"

#include <cmath>
#include <utility>

#include "app/input/scenario_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

// The keys a plan may vary, as (section, key); cluster.nodes stays a list inside each variant.
struct Axis {
  const char* section;
  const char* key;
  bool range;  // numeric: may be {from, to, by}
};
constexpr Axis kAxes[] = {
    {"cluster", "instance", false},         {"training", "framework", false},    {"communication", "algorithm", false},
    {"training", "batch_per_gpu", true},    {"training", "precision", false},    {"training", "bucket_cap_mb", true},
};

constexpr std::size_t kMaxValues = 100000;

// {from, to, by}: by "x2" multiplies, a number adds. Values as YAML scalars.
std::vector<YAML::Node> expand_range(Reader& r, const YAML::Node& n, const std::string& field)
{
  std::vector<YAML::Node> out;
  r.allow_keys(n, field, {"from", "to", "by"});
  const auto from = r.number(n, field, "from", true, 1e-9, 1e12);
  const auto to = r.number(n, field, "to", true, 1e-9, 1e12);
  double step = 1;
  bool times = false;
  if (YAML::Node b = n["by"]; b.IsDefined()) {
    std::string s = b.IsScalar() ? b.Scalar() : "";
    if (!s.empty() && (s[0] == 'x' || s[0] == '*')) {
      times = true;
      s = s.substr(1);
    }
    char* end = nullptr;
    step = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || step <= 0 || (times && step <= 1))
      r.error(b, field + ".by", "expected a positive step (e.g. 8) or a factor above 1 (e.g. x2)");
  }
  if (!from || !to || !r.ok()) return out;
  if (*to < *from) {
    r.error(n, field, "`to` is below `from`");
    return out;
  }
  for (double v = *from; v <= *to * (1 + 1e-12) && out.size() < kMaxValues; v = times ? v * step : v + step) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    out.emplace_back(std::string(buf));
  }
  return out;
}

// The values of one axis: a list's elements (their own marks kept), a range, or the one value.
std::vector<YAML::Node> values(Reader& r, const YAML::Node& n, const std::string& field, bool range)
{
  if (n.IsSequence()) {
    if (n.size() == 0) r.error(n, field, "the list is empty");
    return std::vector<YAML::Node>(n.begin(), n.end());
  }
  if (range && n.IsMap()) return expand_range(r, n, field);
  return {n};
}

void read_goal(Reader& r, const YAML::Node& n, sim::Goal& g)
{
  if (!r.expect_map(n, "goal")) return;
  r.allow_keys(n, "goal", {"deadline", "budget", "minimize", "confidence"});
  if (auto d = r.time(n, "goal", "deadline", false)) {
    if (d->ps <= 0) r.error(n["deadline"], "goal.deadline", "must be positive");
    g.deadline_s = d->seconds();
  }
  if (YAML::Node b = n["budget"]; b.IsDefined()) {
    const auto usd = b.IsScalar() ? parse_usd(b.Scalar()) : std::nullopt;
    if (!usd || *usd <= 0) r.error(b, "goal.budget", "expected an amount in US dollars, e.g. 5000USD");
    else g.budget_usd = *usd;
  }
  if (auto m = r.choice(n, "goal", "minimize", false, {"cost", "time"}))
    g.minimize = *m == "time" ? sim::Minimize::time : sim::Minimize::cost;
  // Issue 18: how sure the recommendation must be. ddpsim's intervals are p10-p90, so 0.9 judges
  // every row by the p90 of its time and cost, 0.5 by the central value (the default).
  if (auto c = r.number(n, "goal", "confidence", false, 0, 1)) {
    if (*c != 0.5 && *c != 0.9)
      r.error(n["confidence"], "goal.confidence",
              "expected 0.5 (judge by the central value) or 0.9 (by the p90 of the p10-p90 interval), got " + fmt("%g", *c));
    g.at_p90 = *c == 0.9;
  }
}

struct Pricing {
  std::string source;
  std::map<std::string, double> per_hour;
};

void read_pricing(Reader& r, const YAML::Node& n, Pricing& p)
{
  if (!r.expect_map(n, "pricing")) return;
  r.allow_keys(n, "pricing", {"source", "per_hour"});
  p.source = r.string(n, "pricing", "source", true).value_or("");
  YAML::Node ph = n["per_hour"];
  if (!ph.IsDefined()) return r.error(n, "pricing.per_hour", "missing (this key is required)");
  if (!r.expect_map(ph, "pricing.per_hour")) return;
  for (const auto& kv : ph) {
    const auto usd = kv.second.IsScalar() ? parse_usd(kv.second.Scalar()) : std::nullopt;
    // The catalog's bound on price_usd_per_hour (app/input/catalog_loader.cpp): an on-demand instance
    // costs at most about $100/hour, and a price past 1e5 only makes costs overflow (issue 21).
    if (!usd || !(*usd >= 0)) r.error(kv.second, "pricing.per_hour." + kv.first.Scalar(), "expected US dollars per hour, e.g. 9.8USD");
    else if (*usd > 1e5) r.error(kv.second, "pricing.per_hour." + kv.first.Scalar(), "must be between 0 and 100000 USD per hour, got " + kv.second.Scalar());
    else p.per_hour[kv.first.Scalar()] = *usd;
  }
}

std::string label_of(const std::vector<std::pair<std::string, std::string>>& varying)
{
  std::string out;
  for (const auto& [k, v] : varying) out += (out.empty() ? "" : ", ") + k + " " + v;
  return out;
}

// parse_scenario_node, with an error that has no source mark (a value the plan generated) placed
// at the deepest node of its field's path in the file as written.
sim::ScenarioSpec parse_located(const std::string& name, const YAML::Node& doc, const YAML::Node& pristine,
                                const Catalog& catalog)
{
  auto locate = [&](const UserError& e) {
    if (e.where().line > 0 || e.where().file.empty()) return e;
    SourceLocation at = e.where();
    YAML::Node n = pristine;
    std::string path = e.field();
    for (std::size_t start = 0; n.IsMap() && start <= path.size();) {
      const std::size_t dot = std::min(path.find_first_of(".[", start), path.size());
      const YAML::Node next = std::as_const(n)[path.substr(start, dot - start)];  // const: adds no key
      if (!next.IsDefined()) break;
      n.reset(next);
      if (!n.Mark().is_null()) at.line = n.Mark().line + 1, at.column = n.Mark().column + 1;
      start = dot + 1;
    }
    return UserError(at, e.field(), e.message());
  };
  try {
    return parse_scenario_node(name, doc, catalog);
  } catch (const UserErrors& errs) {
    std::vector<UserError> out;
    for (const UserError& e : errs.all()) out.push_back(locate(e));
    throw UserErrors(out);
  } catch (const UserError& e) {
    throw locate(e);
  }
}

}  // namespace

std::optional<double> parse_usd(std::string s)
{
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (!s.empty() && s[0] == '$') s = s.substr(1);
  if (s.size() > 3 && s.compare(s.size() - 3, 3, "USD") == 0) s = s.substr(0, s.size() - 3);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

PlanInput parse_plan(const std::string& name, const std::string& text, const Catalog& catalog)
{
  // The document is varied in place, never cloned: YAML::Clone drops the source marks, and every
  // error then read ":1:1" (issue 20). Axis values are the file's own nodes, so an error on one
  // names its line; `pristine` locates the rest (a node range's generated counts).
  YAML::Node base = parse_yaml(name, text);
  const YAML::Node pristine = parse_yaml(name, text);
  Reader r(name);
  PlanInput in;
  if (!r.expect_map(base, "")) r.finish();
  Pricing pricing;
  if (YAML::Node g = base["goal"]; g.IsDefined()) read_goal(r, g, in.goal);
  if (YAML::Node p = base["pricing"]; p.IsDefined()) read_pricing(r, p, pricing);

  // The axes' values; nodes may be a range too.
  base.remove("goal");
  base.remove("pricing");
  if (YAML::Node c = base["cluster"]; c.IsMap() && c["nodes"].IsMap()) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (const YAML::Node& v : expand_range(r, c["nodes"], "cluster.nodes")) seq.push_back(v);
    c["nodes"] = seq;
  }
  std::vector<std::vector<YAML::Node>> axis_values;
  for (const Axis& a : kAxes) {
    YAML::Node sec = base[a.section];
    if (!sec.IsMap() || !sec[a.key].IsDefined()) {
      axis_values.push_back({});
      continue;
    }
    axis_values.push_back(values(r, sec[a.key], std::string(a.section) + "." + a.key, a.range));
  }
  r.finish();
  // The cartesian product, first axis slowest.
  std::vector<std::size_t> idx(axis_values.size(), 0);
  for (;;) {
    YAML::Node& doc = base;
    std::vector<std::pair<std::string, std::string>> varying;
    for (std::size_t i = 0; i < axis_values.size(); ++i) {
      if (axis_values[i].empty()) continue;
      const YAML::Node& v = axis_values[i][idx[i]];
      doc[kAxes[i].section][kAxes[i].key] = v;
      const std::string key = kAxes[i].key;
      if (axis_values[i].size() > 1 && key != "instance" && key != "framework")
        varying.emplace_back(key == "batch_per_gpu" ? "batch" : key == "bucket_cap_mb" ? "bucket MB" : key,
                             v.IsScalar() ? v.Scalar() : "?");
    }
    sim::PlanVariant variant{parse_located(name, doc, pristine, catalog), label_of(varying), true};
    InstanceSpec& inst = variant.spec.cluster.instance;
    if (auto p = pricing.per_hour.find(inst.name); p != pricing.per_hour.end()) {
      inst.price_usd_per_hour = p->second;
      inst.price_source = pricing.source;
    } else if (inst.name.rfind("ml.", 0) == 0 && !catalog.sagemaker.count(inst.name)) {
      // The catalog's prices are EC2 on-demand; SageMaker bills ml.* at its own rates.
      variant.priced = false;
      inst.price_source = "no SageMaker ml.* rate in the catalog";
    }
    in.configurations += variant.spec.cluster.nodes.size() * (1 + variant.spec.training.compare.size());
    in.variants.push_back(std::move(variant));
    std::size_t i = axis_values.size();
    while (i-- > 0) {
      if (axis_values[i].empty()) continue;
      if (++idx[i] < axis_values[i].size()) break;
      idx[i] = 0;
    }
    if (i == static_cast<std::size_t>(-1)) break;
  }
  return in;
}

PlanInput load_plan(const std::string& path, const Catalog& catalog)
{
  return parse_plan(path, read_text_file(path), catalog);
}

}  // namespace ddpsim::app
