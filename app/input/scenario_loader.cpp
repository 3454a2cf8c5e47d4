#include "app/input/scenario_loader.hpp"

#include <filesystem>

#include "algorithms/registry.hpp"
#include "app/input/distribution.hpp"
#include "app/input/nccl_choice_loader.hpp"  // issue 18
#include "app/input/job_profile_io.hpp"
#include "app/input/observed_loader.hpp"
#include "app/input/precision_loader.hpp"  // issue 19
#include "app/input/profile_io.hpp"
#include "app/input/scenario_checks.hpp"
#include "app/input/scenario_keys.hpp"
#include "app/input/transport_loader.hpp"
#include "app/input/scenario_sections.hpp"
#include "app/input/compiler_loader.hpp"    // issue 12
#include "app/input/degraded_loader.hpp"    // issue 12
#include "app/input/trace_loader.hpp"       // issue 19
#include "app/whatifs/whatif_view.hpp"       // issue 17
#include "sim/network/backends.hpp"

namespace ddpsim::app {
namespace {

// cluster.fabric: {kind: single_switch | leaf_spine | rail, nodes_per_leaf, oversubscription,
// switch_latency, in_network_reduction}. leaf_spine needs nodes_per_leaf; oversubscription defaults to 1 (non-blocking).
void read_fabric(Reader& r, const YAML::Node& n, FabricSpec& f)
{
  const std::string path = "cluster.fabric";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("cluster.fabric"));
  if (auto k = r.choice(n, path, "kind", true, {"single_switch", "leaf_spine", "rail"}))
    f.kind = *k == "leaf_spine" ? FabricKind::leaf_spine : *k == "rail" ? FabricKind::rail : FabricKind::single_switch;
  const bool leaf = f.kind == FabricKind::leaf_spine;
  if (auto v = r.integer(n, path, "nodes_per_leaf", leaf, 1, kMaxNodes)) f.nodes_per_leaf = static_cast<int>(*v);
  if (auto v = r.number(n, path, "oversubscription", false, 1.0, 1024.0)) f.oversubscription = *v;
  if (auto v = r.integer(n, path, "spine_uplinks", false, 1, 1024)) f.spine_uplinks = static_cast<int>(*v);  // issue 12
  if (!leaf)
    for (const char* key : {"nodes_per_leaf", "oversubscription", "spine_uplinks"})
      if (n[key].IsDefined()) r.error(n[key], path + "." + key, "only applies to kind: leaf_spine");
  if (auto t = r.time(n, path, "switch_latency", false)) f.switch_latency = *t;
  if (auto b = r.boolean(n, path, "in_network_reduction", false)) f.in_network_reduction = *b;  // SHARP switches
}

void read_cluster(Reader& r, const YAML::Node& n, const Catalog& catalog, const TransportSpec& transport, sim::ClusterSpec& c)
{
  const std::string path = "cluster";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("cluster"));
  if (auto name = r.string(n, path, "instance", true)) {
    if (const InstanceSpec* spec = catalog.find(*name)) {
      c.instance = *spec;
      c.instance.name = *name;  // keep the user's spelling (e.g. ml.p3.16xlarge)
      apply_transport(c.instance, transport);  // software + placement group (issue 18)
      catalog.price_for(*name, c.instance);  // issue 20: SageMaker's own rate for ml.*
      if (YAML::Node o = n["overrides"]; o.IsDefined())
        read_instance_fields(r, o, "cluster.overrides", catalog, c.instance, /*require_all=*/false);
    } else {
      std::string hint = closest(*name, catalog.names());
      r.error(n["instance"], "cluster.instance",
              "unknown instance \"" + *name + "\"" + (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)") +
                  "; `ddpsim catalog` lists them");
    }
  }
  if (YAML::Node nodes = n["nodes"]; nodes.IsDefined() && !nodes.IsNull()) {
    if (nodes.IsSequence()) {
      if (nodes.size() == 0) r.error(nodes, "cluster.nodes", "the list is empty");
      for (const YAML::Node& e : nodes)
        if (auto v = r.as_integer(e, "cluster.nodes", 1, kMaxNodes)) c.nodes.push_back(static_cast<int>(*v));
    } else if (auto v = r.as_integer(nodes, "cluster.nodes", 1, kMaxNodes)) {
      c.nodes.push_back(static_cast<int>(*v));
    }
  } else {
    r.error(n, "cluster.nodes", "missing (this key is required)");
  }
  auto check_gpn = [&](const YAML::Node& at, std::int64_t g) {
    if (!c.instance.name.empty() && g > c.instance.gpus)
      r.error(at, "cluster.gpus_per_node", c.instance.name + " has only " + std::to_string(c.instance.gpus) + " GPUs");
  };
  if (YAML::Node g = n["gpus_per_node"]; g.IsDefined() && g.IsSequence()) {
    // One per entry of `nodes`: e.g. nodes [1, 1, 1, 1, 2] with gpus_per_node [1, 2, 4, 8, 8].
    for (const YAML::Node& e : g)
      if (auto v = r.as_integer(e, "cluster.gpus_per_node", 1, 64)) {
        check_gpn(e, *v);
        c.gpus_per_node_each.push_back(static_cast<int>(*v));
      }
    if (c.gpus_per_node_each.size() != c.nodes.size()) {
      if (r.ok())
        r.error(g, "cluster.gpus_per_node",
                "a list needs one entry per entry of cluster.nodes (" + std::to_string(c.nodes.size()) + ")");
      // The Reader goes on to the other sections after an error, and `observed:` indexes this
      // list by the entries of `nodes`: never leave them different lengths (fuzz_scenario found
      // a heap overflow when an earlier error had skipped the check above).
      c.gpus_per_node_each.clear();
    }
  } else if (auto v = r.integer(n, path, "gpus_per_node", false, 1, 64)) {
    check_gpn(n["gpus_per_node"], *v);
    c.gpus_per_node = static_cast<int>(*v);
  }
  // Job start-up, with units (`startup: 5min`) or in seconds (`startup_s: 300`); default 0 (docs/model.md).
  if (n["startup"].IsDefined() && n["startup_s"].IsDefined())
    r.error(n["startup_s"], "cluster.startup_s", "give either cluster.startup or cluster.startup_s");
  if (auto s = r.time(n, path, "startup", false)) c.startup = *s;
  if (auto s = r.number(n, path, "startup_s", false, 0, 9e6)) c.startup = Time::from_seconds(*s);
  if (YAML::Node f = n["fabric"]; f.IsDefined()) read_fabric(r, f, c.fabric);
  // What-if (issue 12): links below their rate or down.
  if (YAML::Node d = n["degraded"]; d.IsDefined() && !c.instance.name.empty()) read_degraded(r, d, c.instance, c.fabric);
}

}  // namespace

sim::ScenarioSpec parse_scenario(const std::string& name, const std::string& text, const Catalog& catalog)
{
  return parse_scenario_node(name, parse_yaml(name, text), catalog);
}

sim::ScenarioSpec parse_scenario_node(const std::string& name, const YAML::Node& root, const Catalog& catalog)
{
  Reader r(name);
  sim::ScenarioSpec s;
  if (!r.expect_map(root, "")) r.finish();
  r.allow_keys(root, "", scenario_keys(""));
  s.name = r.string(root, "", "name", true).value_or("");
  s.description = r.string(root, "", "description", false).value_or("");
  // The network backend this scenario is meant for; --engine overrides it (issue 11).
  if (auto e = r.choice(root, "", "engine", false, sim::engine_names())) s.engine = *e;
  auto section = [&](const char* key, bool required, auto&& read) {
    YAML::Node n = root[key];
    if (n.IsDefined() && !n.IsNull()) read(n);
    else if (required) r.error(root, key, "missing (this section is required)");
  };
  const TransportSpec transport = read_transport(r, root);
  section("cluster", true, [&](const YAML::Node& n) { read_cluster(r, n, catalog, transport, s.cluster); });
  s.cluster.software_stated = transport.nccl_stated || transport.as_of.has_value();
  for (std::string note : {as_of_note(transport), pod_network_note(transport, s.cluster.instance),
                            rail_striping_note(transport, s.cluster.instance), libfabric_note(transport, s.cluster.instance)})
    if (!note.empty()) s.cluster.software_notes.push_back(std::move(note));
  section("model", true, [&](const YAML::Node& n) { read_model(r, n, catalog, s.model); });
  // software.as_of also dates Horovod's defaults; training.horovod.defaults, read next, overrides them.
  if (transport.as_of && transport.as_of->horovod_pre_2020) s.training.horovod = sim::HorovodDefaults::pre_2020;
  section("training", true, [&](const YAML::Node& n) { read_training(r, n, s.training); });
  section("compute", false, [&](const YAML::Node& n) { read_compute(r, n, s.compute); });
  section("data", false, [&](const YAML::Node& n) { read_data(r, n, s.data); });
  section("communication", false, [&](const YAML::Node& n) { read_communication(r, n, s.communication); });
  section("overheads", false, [&](const YAML::Node& n) { read_overheads(r, n, s.overheads); });  // issue 9
  section("observed", false, [&](const YAML::Node& n) { read_observed(r, n, s); });
  // What-ifs (issue 12): extra compiled rows here; the others' sections below (app/whatifs/).
  section("compiler", false, [&](const YAML::Node& n) { read_compiler(r, n, s.training, s.compiler.emplace()); });
  for (const WhatIfView* v : whatif_views())  // issue 17: every what-if of app/whatifs/
    section(v->name.c_str(), false, [&](const YAML::Node& n) {
      if (auto w = v->parse(r, n, s)) s.whatifs.push_back(std::move(w));
    });
  // A job profile from `ddpsim calibrate job`, relative to the scenario file; loaded below and
  // applied by the twin (sim/study/twin.hpp) so that the uncalibrated prediction can be shown beside it.
  if (auto c = r.string(root, "", "calibration", false)) {
    s.calibration = (std::filesystem::path(name).parent_path() / *c).lexically_normal().string();
    if (const std::string why = missing_file(s.calibration); !why.empty()) r.error(root["calibration"], "calibration", why);
  }
  check_cross_fields(r, root, s);  // app/scenario_checks.hpp (issue 21)
  r.finish();
  finish_traced(root, s);  // issue 19
  if (!s.calibration.empty()) s.job_profile = std::make_shared<const sim::JobProfile>(load_job_profile(s.calibration));
  s.assumed = catalog.assumed_for(s.cluster.instance.name);  // dimensions of the prediction intervals
  // The one default-profile rule and instance check (profile_io.hpp): the shipped profile of the
  // instance unless `profile: none`, as `ddpsim collective` does.
  ResolvedProfile resolved = resolve_profile(s.cluster.instance.name, s.communication.profile_path);
  s.communication.profile = std::move(resolved.profile);  // data: the CollectiveModel applies it
  s.communication.profile_source = std::move(resolved.source);
  // The profile's forced algorithm (NCCL_ALGO of its logs), by the one rule `ddpsim collective`
  // uses too (sim/network/profile.hpp); the gradient reduction is an all-reduce.
  const YAML::Node comm = root["communication"];
  const bool named = comm.IsDefined() && comm.IsMap() && comm["algorithm"].IsDefined();
  if (auto forced = sim::profile_algorithm(s.communication.profile, named, algo::CollectiveOp::all_reduce))
    s.communication.algorithm = std::move(*forced);
  return s;
}

sim::ScenarioSpec load_scenario(const std::string& path, const Catalog& catalog)
{
  return parse_scenario(path, read_text_file(path), catalog);
}

}  // namespace ddpsim::app
