#include "app/input/scenario_sections.hpp"

#include <algorithm>
#include <filesystem>

#include "algorithms/registry.hpp"
#include "app/input/distribution.hpp"
#include "app/input/scenario_keys.hpp"
#include "app/input/nccl_choice_loader.hpp"  // issue 18
#include "app/input/precision_loader.hpp"  // issue 19
#include "app/input/profile_io.hpp"
#include "app/input/trace_loader.hpp"
#include "app/input/transport_loader.hpp"
#include "sim/step/model_zoo.hpp"

namespace ddpsim::app {

// "" when `path` names a regular file, else "no such file: PATH" with the system's reason when it
// is not plain absence. Never throws: a name longer than NAME_MAX is an answer (fuzz_scenario).
std::string missing_file(const std::string& path)
{
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return "";
  return "no such file: " + path + (ec && ec != std::errc::no_such_file_or_directory ? " (" + ec.message() + ")" : "");
}

void read_model(Reader& r, const YAML::Node& n, const Catalog& catalog, sim::ModelSpec& m)
{
  const std::string path = "model";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("model"));
  if (read_model_trace(r, n, catalog, m)) {  // issue 19: model.trace
    if (auto name = r.string(n, path, "name", false)) m.name = *name;
    if (n["kernels"].IsDefined()) r.error(n["kernels"], "model.kernels", "a trace measured its kernels: leave model.kernels out");
    return;
  }
  const bool has_layers = n["layers"].IsDefined();
  const bool has_file = n["file"].IsDefined();  // issue 19: app/precision_loader.hpp
  std::vector<std::string> presets;
  for (const auto& p : sim::model_presets()) presets.emplace_back(p.name);
  auto preset = r.choice(n, path, "preset", !has_layers && !has_file, presets);
  if (preset) {
    std::vector<std::uint64_t> widths;
    if (YAML::Node w = n["widths"]; w.IsDefined()) {
      if (!w.IsSequence()) r.error(w, "model.widths", "expected a list of layer widths");
      for (const YAML::Node& e : w)
        if (auto v = r.as_integer(e, "model.widths", 1, 1 << 20)) widths.push_back(static_cast<std::uint64_t>(*v));
    } else if (*preset == "mlp") {
      r.error(n, "model.widths", "missing (an mlp needs its widths: inputs, then each layer's outputs)");
    }
    const auto seq = r.integer(n, path, "seq_len", false, 1, 1 << 20);
    if (r.ok()) {
      try {
        m = sim::make_preset(*preset, widths, static_cast<std::uint64_t>(seq.value_or(0)));
      } catch (const UserError& e) {
        // Issue 20: blame the key the message is about (seq_len: 513 is not a widths problem).
        const bool about_seq = e.message().find("seq_len") != std::string::npos || e.message().find("sequence") != std::string::npos;
        const char* key = about_seq && n["seq_len"].IsDefined() ? "seq_len" : n["widths"].IsDefined() ? "widths" : "preset";
        r.error(n[key], "model." + std::string(key), e.message());
      }
    }
  } else if (has_layers) {
    const YAML::Node layers = n["layers"];
    if (!layers.IsSequence() || layers.size() == 0) r.error(layers, "model.layers", "expected a non-empty list of layers");
    m.name = "custom";
    for (const YAML::Node& l : layers) {
      const std::string lp = "model.layers[" + std::to_string(m.layers.size()) + "]";
      if (!r.expect_map(l, lp)) continue;
      r.allow_keys(l, lp, scenario_keys("model.layers[]"));
      sim::Layer layer;
      layer.name = r.string(l, lp, "name", false).value_or("layer" + std::to_string(m.layers.size()));
      auto p = r.integer(l, lp, "params", true, 0, std::int64_t{1} << 40);
      layer.params.push_back({layer.name + ".weight", static_cast<std::uint64_t>(p.value_or(0))});
      layer.fwd_flops_per_sample = r.number(l, lp, "fwd_flops", true, 0, 1e18).value_or(0);
      layer.activation_elems_per_sample = r.number(l, lp, "activations", false, 0, 1e15).value_or(0);
      m.layers.push_back(std::move(layer));
    }
  }
  read_model_source(r, n, m);  // issue 19: model.file, model.attention
  auto counted = [](const sim::Layer& l) { return l.eager_fwd.act + l.eager_fwd.wide + l.eager_fwd.cast > 0; };
  if (m.eager_kernels && std::none_of(m.layers.begin(), m.layers.end(), counted))
    r.error(n["kernels"], "model.kernels",
            "eager counts the elementwise kernels of the zoo's convnets and transformers; this model defines none "
            "(to time your own code, give compute.measured_step_s or model.trace)");
  if (auto name = r.string(n, path, "name", false)) m.name = *name;
}

// Issue 9: `overheads:` (sim/step/overheads.hpp OverheadSpec; defaults in docs/model.md).
void read_overheads(Reader& r, const YAML::Node& n, sim::OverheadSpec& o)
{
  const std::string path = "overheads";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys(path));
  if (auto v = r.boolean(n, path, "interference", false)) o.interference = *v;
  if (auto v = r.number(n, path, "hbm_bytes_per_wire_byte", false, 0, 16)) o.hbm_bytes_per_wire_byte = *v;
  if (auto v = r.integer(n, path, "comm_ctas", false, 1, 64)) o.comm_ctas = static_cast<int>(*v);
  if (auto v = r.time(n, path, "collective_launch", false)) {
    if (v->ps < 0) r.error(n["collective_launch"], "overheads.collective_launch", "must not be negative");
    else o.collective_launch = *v;
  }
  if (auto v = r.number(n, path, "optimizer_bytes_per_param", false, 0, 1024)) o.optimizer_bytes_per_param = *v;
  if (auto v = r.boolean(n, path, "cooperative_kernels", false)) o.cooperative_kernels = *v;
  if (auto v = r.time(n, path, "horovod_negotiation", false)) {
    if (v->ps < 0) r.error(n["horovod_negotiation"], "overheads.horovod_negotiation", "must not be negative");
    else o.horovod_negotiation = *v;
  }
  if (auto v = r.time(n, path, "node_step_cost", false)) {
    if (v->ps < 0) r.error(n["node_step_cost"], "overheads.node_step_cost", "must not be negative");
    else o.node_step_cost = *v;
  }
}

void read_training(Reader& r, const YAML::Node& n, sim::TrainingSpec& t)
{
  const std::string path = "training";
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, scenario_keys("training"));
  if (auto b = r.bytes(n, path, "smddp_fusion_threshold", false)) t.smddp_fusion_threshold = *b;
  // The framework: a name, or a SageMaker estimator's `distribution` map (under either key).
  const bool has_framework = n["framework"].IsDefined(), has_distribution = n["distribution"].IsDefined();
  if (has_framework && has_distribution)
    r.error(n["distribution"], "training.distribution", "give either training.framework or training.distribution");
  else if (has_framework || has_distribution) {
    const char* key = has_framework ? "framework" : "distribution";
    if (auto f = read_framework(r, n[key], std::string("training.") + key)) t.framework = *f;
  } else {
    r.error(n, "training.framework", "missing (this key is required)");
  }
  if (YAML::Node c = n["compare"]; c.IsDefined()) {
    // More frameworks to run on the same cluster, e.g. compare: [smddp].
    if (!c.IsSequence()) r.error(c, "training.compare", "expected a list of frameworks");
    else
      for (const YAML::Node& e : c)
        if (auto f = read_framework(r, e, "training.compare")) t.compare.push_back(*f);
  }
  if (auto k = r.integer(n, path, "grad_accum_steps", false, 1, 1 << 20)) t.grad_accum_steps = static_cast<int>(*k);
  if (auto g = r.integer(n, path, "global_batch", false, 1, std::int64_t{1} << 40)) {
    if (n["grad_accum_steps"].IsDefined()) r.error(n["global_batch"], "training.global_batch", "give either grad_accum_steps or global_batch");
    t.global_batch = static_cast<std::uint64_t>(*g);
  }
  if (auto o = r.time(n, path, "lightning_overhead", false)) t.lightning_overhead = *o;
  if (auto o = r.time(n, path, "gloo_step_overhead", false)) t.gloo_step_overhead = *o;
  if (auto v = r.boolean(n, path, "gradient_as_bucket_view", false)) t.gradient_as_bucket_view = *v;  // issue 9
  if (auto v = r.boolean(n, path, "find_unused_parameters", false)) {
    t.find_unused_parameters = *v;
    auto on_reducer = [](sim::Framework f) { return sim::traits(f).path == sim::GradientPath::ddp_buckets && f != sim::Framework::apex_ddp; };
    if (*v && !on_reducer(t.framework) && std::none_of(t.compare.begin(), t.compare.end(), on_reducer))
      r.error(n["find_unused_parameters"], "training.find_unused_parameters",
              "DDP's option: no framework here runs DDP's Reducer (pytorch-ddp, lightning, smddp, parameter-server, gloo)");
  }
  if (auto f = r.choice(n, path, "memory_format", false, {"contiguous", "channels_last"})) t.channels_last = *f == "channels_last";
  if (YAML::Node h = n["horovod"]; h.IsDefined() && r.expect_map(h, "training.horovod")) {
    r.allow_keys(h, "training.horovod", scenario_keys("training.horovod"));
    if (auto d = r.choice(h, "training.horovod", "defaults", false, {"pre-2020", "post-2020"}))
      t.horovod = *d == "pre-2020" ? sim::HorovodDefaults::pre_2020 : sim::HorovodDefaults::post_2020;
    if (auto b = r.bytes(h, "training.horovod", "fusion_threshold", false)) {
      if (b->n == 0) r.error(h["fusion_threshold"], "training.horovod.fusion_threshold", "must be positive");
      t.fusion_threshold = *b;
    }
    if (auto c = r.time(h, "training.horovod", "cycle_time", false)) {
      if (c->ps <= 0) r.error(h["cycle_time"], "training.horovod.cycle_time", "must be positive");
      t.cycle_time = *c;
    }
  }
  if (YAML::Node a = n["apex"]; a.IsDefined() && r.expect_map(a, "training.apex")) {
    r.allow_keys(a, "training.apex", scenario_keys("training.apex"));
    if (auto m = r.integer(a, "training.apex", "message_size", false, 1, std::int64_t{1} << 40)) t.apex_message_size = static_cast<std::uint64_t>(*m);
    // NVIDIA's BERT script passes the world size; only whether it is 1 changes the work.
    if (YAML::Node f = a["gradient_predivide_factor"]; f.IsDefined()) {
      if (f.IsScalar() && f.Scalar() == "world") t.apex_predivide = true;
      else if (auto v = r.number(a, "training.apex", "gradient_predivide_factor", false, 1e-6, 1e12)) t.apex_predivide = *v != 1.0;
    }
  }
  if (auto b = r.integer(n, path, "batch_per_gpu", true, 1, 1 << 24)) t.batch_per_gpu = static_cast<int>(*b);
  read_precision(r, n, t);  // issue 19: precision, comm_hook, activation_checkpointing
  // DDP(bucket_cap_mb=X) given explicitly: PyTorch 2.x then caps the first bucket at X as well
  // (distributed.py: first bucket = _DEFAULT_FIRST_BUCKET_BYTES only when bucket_cap_mb is None).
  if (auto c = r.number(n, path, "bucket_cap_mb", false, 0.001, 1 << 20))
    t.bucket_cap = t.first_bucket_cap = Bytes{static_cast<std::uint64_t>(*c * MiB)};
  if (auto c = r.number(n, path, "first_bucket_mb", false, 0.001, 1 << 20))
    t.first_bucket_cap = Bytes{static_cast<std::uint64_t>(*c * MiB)};
  if (auto o = r.choice(n, path, "optimizer", false, {"sgd", "adam"}))
    t.optimizer = *o == "adam" ? sim::Optimizer::adam : sim::Optimizer::sgd;
  const bool has_steps = n["steps"].IsDefined();
  if (auto s = r.integer(n, path, "steps", false, 1, std::int64_t{1} << 50)) t.steps = static_cast<std::uint64_t>(*s);
  if (auto s = r.integer(n, path, "samples", !has_steps, 1, std::int64_t{1} << 50))
    t.samples = static_cast<std::uint64_t>(*s);
  if (auto e = r.integer(n, path, "epochs", false, 1, 1 << 20)) t.epochs = static_cast<int>(*e);
}

void read_compute(Reader& r, const YAML::Node& n, sim::ComputeParams& c)
{
  if (!r.expect_map(n, "compute")) return;
  r.allow_keys(n, "compute", scenario_keys("compute"));
  if (auto e = r.number(n, "compute", "efficiency", false, 1e-3, 1)) {
    c.efficiency = *e;
    c.efficiency_stated = true;
  }
  if (auto m = r.number(n, "compute", "measured_step_s", false, 1e-9, 1e6)) c.measured_step_s = *m;
  if (auto s = r.number(n, "compute", "speedup", false, 0.01, 100)) c.speedup = *s;
  if (auto k = r.time(n, "compute", "kernel_overhead", false)) c.kernel_overhead = *k;
  if (auto g = r.number(n, "compute", "gpu_spread", false, 0, 0.5)) c.gpu_spread = *g;
  if (auto g = r.number(n, "compute", "node_slowdown", false, 0.1, 10)) c.node_slowdown = *g;
}

void read_data(Reader& r, const YAML::Node& n, sim::DataSpec& d)
{
  if (!r.expect_map(n, "data")) return;
  r.allow_keys(n, "data", scenario_keys("data"));
  if (auto w = r.integer(n, "data", "workers", true, 1, 4096)) d.workers = static_cast<int>(*w);
  if (auto s = r.number(n, "data", "per_sample_cpu_s", true, 0, 1e4)) d.per_sample_cpu_s = *s;
}

void read_communication(Reader& r, const YAML::Node& n, sim::CommunicationSpec& c)
{
  if (!r.expect_map(n, "communication")) return;
  r.allow_keys(n, "communication", scenario_keys("communication"));
  std::vector<std::string> names{"auto"};  // auto: NCCL's choice per bucket size (the default)
  for (std::string_view a : algo::Registry::instance().names()) names.emplace_back(a);
  if (auto a = r.choice(n, "communication", "algorithm", false, names)) c.algorithm = *a;
  read_nccl_choice(r, n, c);
  // A calibration profile, relative to the scenario file (so a scenario and its profile move together).
  if (auto p = r.string(n, "communication", "profile", false); p && *p == "none") {
    c.profile_path = "none";  // the catalog alone
  } else if (p) {
    const std::filesystem::path base = std::filesystem::path(r.file()).parent_path();
    c.profile_path = (base / *p).lexically_normal().string();
    if (const std::string why = missing_file(c.profile_path); !why.empty()) {
      r.error(n["profile"], "communication.profile", why);
      c.profile_path.clear();
    }
  }
}

}  // namespace ddpsim::app
