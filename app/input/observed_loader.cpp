#include "app/input/observed_loader.hpp"
#include "app/input/scenario_keys.hpp"

#include <algorithm>

#include "app/input/distribution.hpp"
#include "app/input/scenario_loader.hpp"

namespace ddpsim::app {
namespace {

std::string at_string(const SourceLocation& l)
{
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

bool same_instance(std::string a, std::string b)
{
  for (std::string* s : {&a, &b})
    if (s->rfind("ml.", 0) == 0) *s = s->substr(3);
  return a == b;
}

// GPUs per node of every configuration the scenario simulates at `nodes` (empty: none).
std::vector<int> gpn_at(const sim::ScenarioSpec& s, int nodes)
{
  std::vector<int> out;
  const int all = s.cluster.gpus_per_node > 0 ? s.cluster.gpus_per_node : s.cluster.instance.gpus;
  for (std::size_t i = 0; i < s.cluster.nodes.size(); ++i)
    if (s.cluster.nodes[i] == nodes)
      out.push_back(s.cluster.gpus_per_node_each.empty() ? all : s.cluster.gpus_per_node_each.at(i));  // checked: fuzz_scenario
  return out;
}

struct RowCheck {
  Reader& r;
  sim::ScenarioSpec& s;
  std::vector<std::pair<sim::Observation, YAML::Node>> seen;

  // Records the row after checking it names a simulated configuration and is new.
  void add(sim::Observation o, const YAML::Node& at, const std::string& field)
  {
    const std::vector<int> gpns = gpn_at(s, o.nodes);
    if (gpns.empty()) {
      r.error(at, field, "unknown configuration: the scenario does not simulate " + std::to_string(o.nodes) +
                             " node(s) (add it to cluster.nodes)");
      return;
    }
    if (o.gpus_per_node == 0) o.gpus_per_node = gpns.front();
    if (std::find(gpns.begin(), gpns.end(), o.gpus_per_node) == gpns.end()) {
      r.error(at, field, "unknown configuration: " + std::to_string(o.nodes) + " node(s) with " +
                             std::to_string(o.gpus_per_node) + " GPUs per node is not simulated");
      return;
    }
    std::vector<sim::Framework> fws{s.training.framework};
    fws.insert(fws.end(), s.training.compare.begin(), s.training.compare.end());
    if (std::find(fws.begin(), fws.end(), o.framework) == fws.end()) {
      r.error(at, field, "unknown configuration: framework " + std::string(to_string(o.framework)) +
                             " is neither training.framework nor in training.compare");
      return;
    }
    for (const auto& [p, node] : seen)
      if (p.nodes == o.nodes && p.gpus_per_node == o.gpus_per_node && p.framework == o.framework &&
          p.metric == o.metric) {
        r.error(at, field, std::string("duplicate: the ") + to_string(o.metric) + " of this configuration is already given at " +
                               at_string(r.where(node)));
        return;
      }
    o.where = at_string(r.where(at));
    seen.emplace_back(o, at);
    s.observations.push_back(o);
  }
};

void read_row(Reader& r, const YAML::Node& row, const std::string& path, const std::string& source, RowCheck& check)
{
  if (!r.expect_map(row, path)) return;
  r.allow_keys(row, path, scenario_keys("observed.rows[]"));
  sim::Observation o;
  o.framework = check.s.training.framework;
  o.source = r.string(row, path, "source", false).value_or(source);
  const auto nodes = r.integer(row, path, "nodes", true, 1, kMaxNodes);
  if (auto g = r.integer(row, path, "gpus_per_node", false, 1, 64)) o.gpus_per_node = static_cast<int>(*g);
  if (YAML::Node f = row["framework"]; f.IsDefined())
    if (auto fw = read_framework(r, f, path + ".framework")) o.framework = *fw;
  if (auto inst = r.string(row, path, "instance", false); inst && !same_instance(*inst, check.s.cluster.instance.name))
    r.error(row["instance"], path + ".instance",
            "unknown configuration: the scenario simulates " + check.s.cluster.instance.name + ", not " + *inst);
  int metrics = 0;
  for (const char* key : {"total", "step_time", "samples_per_s"}) metrics += row[key].IsDefined() ? 1 : 0;
  if (metrics != 1) {
    r.error(row, path, "give exactly one of total, step_time, samples_per_s");
    return;
  }
  const char* key = row["total"].IsDefined() ? "total" : row["step_time"].IsDefined() ? "step_time" : "samples_per_s";
  std::optional<double> value;
  if (std::string(key) == "samples_per_s") {
    o.metric = sim::Metric::samples_per_s;
    value = r.as_number(row[key], path + "." + key, -1e300, 1e300);
  } else {
    o.metric = std::string(key) == "total" ? sim::Metric::total_time : sim::Metric::step_time;
    if (auto t = r.time(row, path, key, true)) value = t->seconds();
  }
  if (value && !(*value > 0)) {
    r.error(row[key], path + "." + key, "must be positive");
    return;
  }
  if (!nodes || !value || !r.ok()) return;
  o.nodes = static_cast<int>(*nodes);
  o.value = *value;
  check.add(o, row, path);
}

}  // namespace

void read_observed(Reader& r, const YAML::Node& n, sim::ScenarioSpec& s)
{
  if (!r.expect_map(n, "observed")) return;
  r.allow_keys(n, "observed", scenario_keys("observed"));
  const std::string source = r.string(n, "observed", "source", false).value_or("");
  RowCheck check{r, s, {}};
  if (YAML::Node m = n["minutes"]; m.IsDefined() && r.expect_map(m, "observed.minutes")) {
    for (const auto& kv : m) {
      const std::string field = "observed.minutes." + kv.first.Scalar();
      auto nodes = r.as_integer(kv.first, "observed.minutes", 1, kMaxNodes);
      auto minutes = r.as_number(kv.second, field, -1e300, 1e300);
      if (minutes && !(*minutes > 0)) {
        r.error(kv.second, field, "must be positive");
        continue;
      }
      if (!nodes || !minutes) continue;
      sim::Observation o;
      o.nodes = static_cast<int>(*nodes);
      o.framework = s.training.framework;
      o.metric = sim::Metric::total_time;
      o.value = *minutes * 60;
      o.source = source;
      check.add(o, kv.first, field);
    }
  }
  if (YAML::Node rows = n["rows"]; rows.IsDefined()) {
    if (!rows.IsSequence() || rows.size() == 0) r.error(rows, "observed.rows", "expected a non-empty list of rows");
    else
      for (std::size_t i = 0; i < rows.size(); ++i)
        read_row(r, rows[i], "observed.rows[" + std::to_string(i) + "]", source, check);
  }
  // The report's observed columns: total minutes of the primary framework per node count.
  const int all = s.cluster.gpus_per_node > 0 ? s.cluster.gpus_per_node : s.cluster.instance.gpus;
  for (const sim::Observation& o : s.observations) {
    if (o.framework != s.training.framework || o.gpus_per_node != all || !s.cluster.gpus_per_node_each.empty()) continue;
    if (o.metric == sim::Metric::total_time) s.observed_minutes[o.nodes] = o.value / 60;
    if (o.metric == sim::Metric::step_time) s.observed_step_s[o.nodes] = o.value;  // issue 20: shown too
    if (o.metric == sim::Metric::samples_per_s) s.observed_samples_per_s[o.nodes] = o.value;
  }
}

}  // namespace ddpsim::app
