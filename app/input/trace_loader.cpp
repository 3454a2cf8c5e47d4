#include "app/input/trace_loader.hpp"

#include <filesystem>

#include "app/input/kineto_events.hpp"

namespace ddpsim::app {

bool read_model_trace(Reader& r, const YAML::Node& n, const Catalog& catalog, sim::ModelSpec& m)
{
  if (!n["trace"].IsDefined()) {
    if (n["trace_gpu"].IsDefined()) r.error(n["trace_gpu"], "model.trace_gpu", "only applies with model.trace");
    return false;
  }
  for (const char* other : {"preset", "layers", "widths", "seq_len"})
    if (n[other].IsDefined()) r.error(n[other], std::string("model.") + other, std::string("give either model.trace or model.") + other);
  const auto file = r.string(n, "model", "trace", true);
  std::string gpu;
  if (auto g = r.string(n, "model", "trace_gpu", false)) {
    if (!catalog.gpus.count(*g)) r.error(n["trace_gpu"], "model.trace_gpu", "unknown GPU \"" + *g + "\" (the catalog's gpus: section)");
    gpu = *g;
  }
  if (!file || !r.ok()) return true;
  const std::string path = (std::filesystem::path(r.file()).parent_path() / *file).lexically_normal().string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    r.error(n["trace"], "model.trace", "no such file: " + path);
    return true;
  }
  auto traced = import_trace(path, catalog.gpus, gpu);
  const std::string name = std::filesystem::path(path).filename().string();
  m = sim::traced_model_spec(std::move(traced), "traced " + name);
  return true;
}

void finish_traced(const YAML::Node& root, sim::ScenarioSpec& s)
{
  const sim::TracedModel* t = s.model.traced.get();
  if (!t) return;
  const YAML::Node training = root["training"];
  if (!(training.IsMap() && training["precision"].IsDefined()) && !t->buckets.empty()) {
    const std::string& d = t->buckets.front().dtype;
    s.training.precision = d == "BFloat16" ? Precision::bf16 : d == "Half" ? Precision::fp16 : s.training.precision;
  }
}

}  // namespace ddpsim::app
