#include "app/input/distribution.hpp"

namespace ddpsim::app {
namespace {

// True when `n` is {enabled: true} (other keys, e.g. custom_mpi_options, are the launcher's).
bool enabled(Reader& r, const YAML::Node& n, const std::string& field)
{
  if (!n.IsMap()) {
    r.error(n, field, "expected a map like {enabled: true}");
    return false;
  }
  const std::optional<bool> e = r.boolean(n, field, "enabled", true);
  if (e && !*e) r.error(n["enabled"], field + ".enabled", "is false: this distribution map enables no framework");
  return e.value_or(false);
}

std::optional<sim::Framework> from_distribution(Reader& r, const YAML::Node& n, const std::string& field)
{
  if (n.size() != 1) {
    r.error(n, field, "a SageMaker distribution map names exactly one strategy (pytorchddp, torch_distributed, "
                      "smdistributed, mpi)");
    return std::nullopt;
  }
  const YAML::Node key_node = n.begin()->first;
  if (!key_node.IsScalar()) {  // `- {}: ...`: a map as the key (fuzz_scenario, 2026-12-07)
    r.error(key_node, field, "expected a strategy name (pytorchddp, torch_distributed, smdistributed, mpi) as the key");
    return std::nullopt;
  }
  const std::string key = key_node.Scalar();
  const YAML::Node v = n.begin()->second;
  const std::string sub = field + "." + key;
  if (key == "pytorchddp" || key == "torch_distributed")
    return enabled(r, v, sub) ? std::optional(sim::Framework::pytorch_ddp) : std::nullopt;
  if (key == "mpi") return enabled(r, v, sub) ? std::optional(sim::Framework::horovod) : std::nullopt;
  if (key == "smdistributed") {
    if (!v.IsMap() || !v["dataparallel"].IsDefined()) {
      r.error(v, sub, "only smdistributed.dataparallel (SMDDP) is modelled");
      return std::nullopt;
    }
    return enabled(r, v["dataparallel"], sub + ".dataparallel") ? std::optional(sim::Framework::smddp) : std::nullopt;
  }
  const std::string hint = closest(key, {"pytorchddp", "torch_distributed", "smdistributed", "mpi"});
  r.error(n.begin()->first, field,
          "unknown distribution \"" + key + "\"" + (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)"));
  return std::nullopt;
}

}  // namespace

std::optional<sim::Framework> read_framework(Reader& r, const YAML::Node& n, const std::string& field)
{
  if (n.IsMap()) return from_distribution(r, n, field);
  if (!n.IsScalar()) {
    r.error(n, field, "expected a framework name or a SageMaker distribution map");
    return std::nullopt;
  }
  const std::string name = n.Scalar();
  if (auto f = sim::parse_framework(name)) return f;
  std::string valid;
  for (const std::string& v : sim::framework_names()) valid += (valid.empty() ? "" : ", ") + v;
  const std::string hint = closest(name, sim::framework_names());
  r.error(n, field,
          "unknown framework \"" + name + "\"" + (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)") +
              " (valid: " + valid + ", or a SageMaker distribution map)");
  return std::nullopt;
}

}  // namespace ddpsim::app
