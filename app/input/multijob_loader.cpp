#include "app/input/multijob_loader.hpp"

#include <set>

#include "app/input/scenario_loader.hpp"
#include "app/input/yaml_reader.hpp"
#include "sim/network/backends.hpp"
#include "sim/step/sharded.hpp"

namespace ddpsim::app {
namespace {

// Sections a job may set for itself; a job without one uses the file's top-level section.
const std::vector<std::string> kJobSections{"model", "training", "compute", "data", "communication"};

// A one-job scenario document: `cluster` is the file's with `nodes` replaced by the job's count
// (and without `degraded`, whose node numbers are the cluster's: it applies to the shared fabric).
// Nodes are shared, not copied, so every value keeps its position in the file.
YAML::Node job_document(const YAML::Node& root, const YAML::Node& job, const std::string& name, int nodes)
{
  YAML::Node doc(YAML::NodeType::Map);
  doc["name"] = name;
  YAML::Node cluster(YAML::NodeType::Map);
  for (const auto& kv : root["cluster"]) {
    const std::string key = kv.first.Scalar();
    if (key != "nodes" && key != "degraded") cluster[key] = kv.second;
  }
  cluster["nodes"] = nodes;
  doc["cluster"] = cluster;
  for (const std::string& key : kJobSections) {
    if (job && job[key].IsDefined()) doc[key] = job[key];
    else if (root[key].IsDefined()) doc[key] = root[key];
  }
  return doc;
}

}  // namespace

bool is_multijob_file(const std::string& path)
{
  try {
    const YAML::Node root = YAML::Load(read_text_file(path));
    return root.IsMap() && root["jobs"].IsDefined();
  } catch (const std::exception&) {
    return false;  // the scenario loader reports it
  }
}

sim::MultiJobSpec parse_multijob(const std::string& name, const YAML::Node& root, const Catalog& catalog)
{
  Reader r(name);
  sim::MultiJobSpec m;
  if (!r.expect_map(root, "")) r.finish();
  r.allow_keys(root, "", {"name", "description", "engine", "cluster", "placement", "jobs", "model", "training", "compute",
                          "data", "communication"});
  m.name = r.string(root, "", "name", true).value_or("");
  if (auto e = r.choice(root, "", "engine", false, sim::engine_names())) m.engine = *e;
  m.description = r.string(root, "", "description", false).value_or("");
  const YAML::Node cluster = root["cluster"];
  if (!cluster.IsDefined() || !r.expect_map(cluster, "cluster")) {
    if (!cluster.IsDefined()) r.error(root, "cluster", "missing (this section is required)");
    r.finish();
  }
  if (cluster["nodes"].IsDefined() && cluster["nodes"].IsSequence())
    r.error(cluster["nodes"], "cluster.nodes", "with jobs, the cluster's node count (one number, not a list)");
  else if (auto n = r.integer(cluster, "cluster", "nodes", true, 1, kMaxNodes)) m.nodes = static_cast<int>(*n);
  if (cluster["gpus_per_node"].IsDefined() && cluster["gpus_per_node"].IsSequence())
    r.error(cluster["gpus_per_node"], "cluster.gpus_per_node", "with jobs, one number (every node alike)");
  if (auto p = r.choice(root, "", "placement", false, {"packed", "spread"}))
    m.placement = *p == "spread" ? sim::Placement::spread : sim::Placement::packed;
  const YAML::Node jobs = root["jobs"];  // const: a missing key is an invalid node, not a null one
  if (!jobs.IsDefined()) r.error(root, "jobs", "missing (a shared-fabric file needs a list of jobs)");
  else if (!jobs.IsSequence() || jobs.size() < 2) r.error(jobs, "jobs", "expected a list of at least two jobs");
  r.finish();

  // Each job: name, nodes (a count) or node_range [first, last], and its own sections.
  std::set<std::string> names;
  std::vector<std::pair<int, int>> ranges;  // [first, last] of the jobs that give one
  int counted = 0;
  std::vector<YAML::Node> job_nodes;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const YAML::Node job = jobs[i];
    const std::string path = "jobs[" + std::to_string(i) + "]";
    if (!r.expect_map(job, path)) continue;
    std::vector<std::string> keys{"name", "nodes", "node_range"};
    keys.insert(keys.end(), kJobSections.begin(), kJobSections.end());
    r.allow_keys(job, path, keys);
    sim::JobSpec js;
    js.name = r.string(job, path, "name", true).value_or("job" + std::to_string(i));
    if (!names.insert(js.name).second) r.error(job["name"], path + ".name", "two jobs named \"" + js.name + "\"");
    int count = 0;
    if (job["node_range"].IsDefined()) {
      const YAML::Node nr = job["node_range"];
      if (job["nodes"].IsDefined()) r.error(job["nodes"], path + ".nodes", "give either nodes or node_range");
      if (!nr.IsSequence() || nr.size() != 2) {
        r.error(nr, path + ".node_range", "expected [first, last] (cluster node numbers, from 0)");
      } else {
        const auto a = r.as_integer(nr[0], path + ".node_range", 0, m.nodes - 1);
        const auto b = r.as_integer(nr[1], path + ".node_range", 0, m.nodes - 1);
        if (a && b && *b < *a) r.error(nr, path + ".node_range", "last node before the first");
        if (a && b && *b >= *a) {
          bool overlaps = false;
          for (const auto& [f, l] : ranges)
            if (!overlaps && !(*b < f || *a > l)) {
              overlaps = true;
              r.error(nr, path + ".node_range",
                      "overlaps another job's nodes [" + std::to_string(f) + ", " + std::to_string(l) + "]");
            }
          ranges.emplace_back(static_cast<int>(*a), static_cast<int>(*b));
          js.first_node = static_cast<int>(*a);
          count = overlaps ? 0 : static_cast<int>(*b - *a + 1);  // one error per job
        }
      }
    } else if (auto n = r.integer(job, path, "nodes", true, 1, kMaxNodes)) {
      count = static_cast<int>(*n);
    }
    counted += count;
    if (count > 0 && counted > m.nodes)
      r.error(job["nodes"].IsDefined() ? job["nodes"] : job["node_range"], path + ".nodes",
              "the jobs need " + std::to_string(counted) + " nodes so far, the cluster has " + std::to_string(m.nodes));
    js.spec.cluster.nodes = {count};
    m.jobs.push_back(std::move(js));
    job_nodes.push_back(job);
  }
  r.finish();

  // Each job as a scenario of its own (the scenario loader's checks and locations).
  for (std::size_t i = 0; i < m.jobs.size(); ++i) {
    sim::JobSpec& js = m.jobs[i];
    const YAML::Node& job = job_nodes[i];
    js.spec = parse_scenario_node(name, job_document(root, job, js.name, js.spec.cluster.nodes.front()), catalog);
    const std::string path = "jobs[" + std::to_string(i) + "]";
    const YAML::Node training = job["training"].IsDefined() ? job["training"] : root["training"];
    if (!js.spec.training.compare.empty())
      r.error(training["compare"], path + ".training.compare", "one framework per job (give each its own job)");
    if (sim::shard_stage(js.spec.training.framework) != sim::ShardStage::none)
      r.error(training, path + ".training.framework",
              "sharded frameworks (ZeRO, FSDP) are not supported with several jobs on one fabric yet");
  }
  r.finish();

  // The shared cluster: the file's cluster section (with its degraded links), read as the
  // scenario loader reads it; model and training are the first job's, only to make it complete.
  const sim::ScenarioSpec whole = parse_scenario_node(name, job_document(root, job_nodes.front(), m.name, m.nodes), catalog);
  m.instance = whole.cluster.instance;
  m.gpus_per_node = whole.cluster.gpus_per_node;
  m.fabric = whole.cluster.fabric;
  if (YAML::Node d = cluster["degraded"]; d.IsDefined()) {
    YAML::Node doc = job_document(root, job_nodes.front(), m.name, m.nodes);
    doc["cluster"]["degraded"] = d;
    m.fabric = parse_scenario_node(name, doc, catalog).cluster.fabric;
  }
  return m;
}

sim::MultiJobSpec load_multijob(const std::string& path, const Catalog& catalog)
{
  return parse_multijob(path, load_yaml_file(path), catalog);
}

}  // namespace ddpsim::app
