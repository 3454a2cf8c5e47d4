#include "app/input/plan_loader.hpp"

#include <cmath>

#include "app/input/scenario_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "core/error.hpp"

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
  r.allow_keys(n, "goal", {"deadline", "budget", "minimize"});
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
    if (!usd || *usd < 0) r.error(kv.second, "pricing.per_hour." + kv.first.Scalar(), "expected US dollars per hour, e.g. 9.8USD");
    else p.per_hour[kv.first.Scalar()] = *usd;
  }
}

std::string label_of(const std::vector<std::pair<std::string, std::string>>& varying)
{
  std::string out;
  for (const auto& [k, v] : varying) out += (out.empty() ? "" : ", ") + k + " " + v;
  return out;
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
  const YAML::Node root = parse_yaml(name, text);
  Reader r(name);
  PlanInput in;
  if (!r.expect_map(root, "")) r.finish();
  Pricing pricing;
  if (YAML::Node g = root["goal"]; g.IsDefined()) read_goal(r, g, in.goal);
  if (YAML::Node p = root["pricing"]; p.IsDefined()) read_pricing(r, p, pricing);

  // The axes' values; nodes may be a range too.
  YAML::Node base = YAML::Clone(root);
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
    YAML::Node doc = YAML::Clone(base);
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
    sim::PlanVariant variant{parse_scenario_node(name, doc, catalog), label_of(varying), true};
    InstanceSpec& inst = variant.spec.cluster.instance;
    if (auto p = pricing.per_hour.find(inst.name); p != pricing.per_hour.end()) {
      inst.price_usd_per_hour = p->second;
      inst.price_source = pricing.source;
    } else if (inst.name.rfind("ml.", 0) == 0) {
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
