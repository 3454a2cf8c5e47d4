#include "app/input/resilience_loader.hpp"
#include "app/input/scenario_keys.hpp"

#include <cmath>
#include <cstdlib>

namespace ddpsim::app {

extern const char* const kBuiltinStorageYaml;  // generated: storage_data.cpp
extern const char* const kBuiltinStorageName;

namespace {

// Fields present in `n` change `s` (the catalog entry first, then a scenario's overrides). The
// aggregates follow from the store's own physics: FSx serves capacity x per-unit throughput; S3
// serves request rate x part size per prefix.
void read_storage_fields(Reader& r, const YAML::Node& n, const std::string& path, sim::StorageSpec& s, double& capacity_tib,
                         double& per_unit, double& part, double& puts, double& gets)
{
  r.allow_keys(n, path, scenario_keys("resilience.checkpoint.storage"));  // catalog and overrides alike
  if (auto v = r.string(n, path, "description", false)) s.source = *v;
  if (auto v = r.bytes(n, path, "capacity", false)) capacity_tib = v->as_double() / static_cast<double>(GiB * 1024);
  if (auto v = r.bandwidth(n, path, "per_unit_throughput", false)) per_unit = v->bytes_per_s;
  if (auto v = r.bandwidth(n, path, "write_per_client", false)) s.write_per_client = *v;
  if (auto v = r.bandwidth(n, path, "read_per_client", false)) s.read_per_client = *v;
  if (auto v = r.bandwidth(n, path, "write_aggregate", false)) s.write_aggregate = *v;
  if (auto v = r.bandwidth(n, path, "read_aggregate", false)) s.read_aggregate = *v;
  if (auto v = r.bytes(n, path, "part_size", false)) part = v->as_double();
  if (auto v = r.number(n, path, "put_per_s", false, 1, 1e9)) puts = *v;
  if (auto v = r.number(n, path, "get_per_s", false, 1, 1e9)) gets = *v;
  if (auto v = r.boolean(n, path, "survives_node_loss", false)) s.survives_node_loss = *v;
  if (capacity_tib > 0 && per_unit > 0)
    s.write_aggregate = s.read_aggregate = Bandwidth{capacity_tib * per_unit};
  if (part > 0 && puts > 0) s.write_aggregate = Bandwidth{part * puts};
  if (part > 0 && gets > 0) s.read_aggregate = Bandwidth{part * gets};
  for (const char* key : {"write_per_client", "read_per_client"})
    if ((key[0] == 'w' ? s.write_per_client : s.read_per_client).bytes_per_s <= 0)
      r.error(n, join_path(path, key), "missing or zero (every store needs a per-node rate)");
}

struct StorageEntry {
  sim::StorageSpec spec;
  double capacity_tib = 0, per_unit = 0, part = 0, puts = 0, gets = 0;
};

std::map<std::string, StorageEntry> storage_entries()
{
  YAML::Node root = parse_yaml(kBuiltinStorageName, kBuiltinStorageYaml);
  Reader r(kBuiltinStorageName);
  std::map<std::string, StorageEntry> out;
  if (r.expect_map(root, "") && r.expect_map(root["storage"], "storage"))
    for (const auto& kv : root["storage"]) {
      StorageEntry e;
      e.spec.name = kv.first.Scalar();
      if (r.expect_map(kv.second, "storage." + e.spec.name))
        read_storage_fields(r, kv.second, "storage." + e.spec.name, e.spec, e.capacity_tib, e.per_unit, e.part, e.puts,
                            e.gets);
      out[e.spec.name] = e;
    }
  try {
    r.finish();
  } catch (const UserError& e) {
    throw InternalError(std::string("built-in storage catalog: ") + e.what());
  }
  return out;
}

// A duration that may exceed Time's +-106 days (an MTBF of years): number and unit s, min, h, d.
std::optional<double> long_duration_s(Reader& r, const YAML::Node& map, const std::string& path, const std::string& key)
{
  auto text = r.string(map, path, key, false);
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text->c_str(), &end);
  const std::string unit(end);
  const double scale = unit == "s" ? 1 : unit == "min" ? 60 : unit == "h" ? 3600 : unit == "d" ? 86400 : 0;
  if (end == text->c_str() || scale == 0 || !(v > 0) || !std::isfinite(v)) {
    r.error(map[key], join_path(path, key), "expected a positive duration with a unit (s, min, h, d), e.g. 2000h");
    return std::nullopt;
  }
  return v * scale;
}

}  // namespace

std::map<std::string, sim::StorageSpec> builtin_storage()
{
  std::map<std::string, sim::StorageSpec> out;
  for (auto& [name, e] : storage_entries()) out[name] = e.spec;
  return out;
}

void read_resilience(Reader& r, const YAML::Node& n, sim::ResilienceSpec& spec)
{
  const std::string path = "resilience";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("resilience"));
  if (n["node_mtbf"].IsDefined() && n["gpu_mtbf"].IsDefined())
    r.error(n["gpu_mtbf"], "resilience.gpu_mtbf", "give either resilience.node_mtbf or resilience.gpu_mtbf");
  spec.mtbf_source = "scenario";
  if (auto m = long_duration_s(r, n, path, "node_mtbf")) spec.node_mtbf_s = *m;
  else if (auto g = long_duration_s(r, n, path, "gpu_mtbf")) spec.gpu_mtbf_s = *g;
  else {
    spec.gpu_mtbf_s = sim::kLlama3GpuMtbfHours * 3600;
    spec.mtbf_source = "Llama 3 (arXiv 2407.21783, Table 5): 419 unexpected interruptions in 54 days on 16,384 H100";
  }
  if (auto s = r.string(n, path, "mtbf_source", false)) spec.mtbf_source = *s;
  if (auto t = r.time(n, path, "restart", false)) spec.restart = *t;
  if (auto t = r.time(n, path, "requeue", false)) spec.requeue = *t;

  const std::string cp = "resilience.checkpoint";
  YAML::Node c = n["checkpoint"];
  if (!c.IsDefined()) {
    r.error(n, cp, "missing (say where checkpoints go: checkpoint: {storage: fsx})");
  } else if (r.expect_map(c, cp)) {
    r.allow_keys(c, cp, scenario_keys("resilience.checkpoint"));
    if (YAML::Node e = c["every"]; e.IsDefined() && !(e.IsScalar() && e.Scalar() == "auto")) {
      if (auto t = r.time(c, cp, "every", false)) {
        if (t->ps <= 0) r.error(e, cp + ".every", "must be positive (or auto)");
        spec.checkpoint.every = *t;
      }
    }
    if (auto w = r.choice(c, cp, "writers", false, {"rank0", "every_node"}))
      spec.checkpoint.writers = *w == "every_node" ? sim::Writers::every_node : sim::Writers::rank0;
    if (auto b = r.bytes(c, cp, "size", false)) {
      if (b->n == 0) r.error(c["size"], cp + ".size", "must be positive");
      spec.checkpoint.size = *b;
    }
    const auto catalog = storage_entries();
    std::vector<std::string> names;
    for (const auto& kv : catalog) names.push_back(kv.first);
    YAML::Node s = c["storage"];
    const std::string sp = cp + ".storage";
    std::optional<std::string> kind;
    if (s.IsDefined() && s.IsMap()) kind = r.choice(s, sp, "kind", true, names);
    else kind = r.choice(c, cp, "storage", true, names);
    if (kind) {
      StorageEntry e = catalog.at(*kind);
      if (s.IsMap()) read_storage_fields(r, s, sp, e.spec, e.capacity_tib, e.per_unit, e.part, e.puts, e.gets);
      spec.checkpoint.storage = e.spec;
    }
  }
  if (YAML::Node mc = n["monte_carlo"]; mc.IsDefined() && r.expect_map(mc, "resilience.monte_carlo")) {
    r.allow_keys(mc, "resilience.monte_carlo", scenario_keys("resilience.monte_carlo"));
    if (auto t = r.integer(mc, "resilience.monte_carlo", "trials", true, 1, 1000000)) spec.monte_carlo_trials = static_cast<int>(*t);
    if (auto s = r.integer(mc, "resilience.monte_carlo", "seed", false, 0, std::int64_t{1} << 62))
      spec.seed = static_cast<std::uint64_t>(*s);
  }
}

}  // namespace ddpsim::app
