#include "app/input/model_file.hpp"

#include <set>

#include "app/input/yaml_reader.hpp"

namespace ddpsim::app {
namespace {

const std::vector<std::string> kTopKeys{"ddpsim_model", "name", "source", "input", "measured_batch",
                                        "tokens_per_sample", "layers", "grad_order"};
const std::vector<std::string> kLayerKeys{"name", "type", "fwd_flops", "activations", "saved", "saved_mask_bytes",
                                          "attention_scores", "params"};
const std::vector<std::string> kParamKeys{"name", "numel", "dtype", "requires_grad", "grad"};
// Parameter dtypes (torch's names without "torch."): the floating and complex ones, the only
// ones a parameter that trains can have.
const std::vector<std::string> kDtypes{"float32", "float64", "float16", "bfloat16", "complex64", "complex128"};

constexpr double kMaxPerSample = 1e18;

void read_param(Reader& r, const YAML::Node& n, const std::string& path, sim::Layer& layer)
{
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, kParamKeys);
  sim::Tensor t;
  t.name = r.string(n, path, "name", true).value_or("");
  t.numel = static_cast<std::uint64_t>(r.integer(n, path, "numel", true, 0, std::int64_t{1} << 44).value_or(0));
  r.choice(n, path, "dtype", false, kDtypes);
  const bool requires_grad = r.boolean(n, path, "requires_grad", false).value_or(true);
  const bool got_grad = r.boolean(n, path, "grad", false).value_or(requires_grad);
  if (got_grad && !requires_grad)
    r.error(n["grad"].IsDefined() ? n["grad"] : n, path + ".grad", "a parameter with requires_grad: false cannot receive a gradient");
  if (requires_grad && !got_grad)
    r.error(n["grad"].IsDefined() ? n["grad"] : n, path + ".grad",
            "requires grad but got none in the exported backward pass (unused in forward): DDP then needs "
            "find_unused_parameters=True, which ddpsim does not model; freeze it (requires_grad=False) or use it");
  t.grad = requires_grad;
  layer.params.push_back(std::move(t));
}

void read_layer(Reader& r, const YAML::Node& n, const std::string& path, sim::ModelSpec& m)
{
  if (!r.expect_map(n, path)) return;
  r.allow_keys(n, path, kLayerKeys);
  sim::Layer l;
  l.name = r.string(n, path, "name", false).value_or("layer" + std::to_string(m.layers.size()));
  r.string(n, path, "type", false);
  l.fwd_flops_per_sample = r.number(n, path, "fwd_flops", true, 0, kMaxPerSample).value_or(0);
  l.activation_elems_per_sample = r.number(n, path, "activations", false, 0, kMaxPerSample).value_or(0);
  l.saved_elems_per_sample = r.number(n, path, "saved", false, 0, kMaxPerSample).value_or(l.activation_elems_per_sample);
  l.saved_mask_bytes_per_sample = r.number(n, path, "saved_mask_bytes", false, 0, kMaxPerSample).value_or(0);
  l.attention_scores_per_sample = r.number(n, path, "attention_scores", false, 0, kMaxPerSample).value_or(0);
  if (YAML::Node ps = n["params"]; ps.IsDefined() && !ps.IsNull()) {
    if (!ps.IsSequence()) r.error(ps, path + ".params", "expected a list of parameter tensors");
    else
      for (const YAML::Node& p : ps) read_param(r, p, path + ".params[" + std::to_string(l.params.size()) + "]", l);
  }
  m.layers.push_back(std::move(l));
}

// grad_order: positions in the flat parameter list; every tensor that trains exactly once.
void read_grad_order(Reader& r, const YAML::Node& n, sim::ModelSpec& m)
{
  std::vector<sim::TensorRef> flat;
  for (std::size_t li = 0; li < m.layers.size(); ++li)
    for (std::size_t ti = 0; ti < m.layers[li].params.size(); ++ti) flat.push_back(sim::TensorRef{li, ti});
  if (!n.IsDefined() || n.IsNull()) return;  // reverse registration order
  if (!n.IsSequence()) {
    r.error(n, "grad_order", "expected a list of parameter positions");
    return;
  }
  std::set<std::int64_t> seen;
  for (const YAML::Node& e : n) {
    const auto v = r.as_integer(e, "grad_order", 0, static_cast<std::int64_t>(flat.size()) - 1);
    if (!v) continue;
    const sim::TensorRef t = flat[static_cast<std::size_t>(*v)];
    const sim::Tensor& tensor = m.layers[t.layer].params[t.tensor];
    if (!seen.insert(*v).second) r.error(e, "grad_order", "parameter " + std::to_string(*v) + " is listed twice");
    else if (!tensor.grad) r.error(e, "grad_order", tensor.name + " does not receive a gradient");
    else m.grad_order.push_back(t);
  }
  for (std::size_t i = 0; i < flat.size(); ++i) {
    const sim::Tensor& tensor = m.layers[flat[i].layer].params[flat[i].tensor];
    if (tensor.grad && !seen.count(static_cast<std::int64_t>(i))) {
      r.error(n, "grad_order", "misses parameter " + std::to_string(i) + " (" + tensor.name + ")");
      break;
    }
  }
}

}  // namespace

sim::ModelSpec parse_model_file(const std::string& name, const std::string& text)
{
  const YAML::Node root = parse_yaml(name, text);
  Reader r(name);
  sim::ModelSpec m;
  if (!r.expect_map(root, "")) r.finish();
  r.allow_keys(root, "", kTopKeys);
  r.integer(root, "", "ddpsim_model", true, 1, 1);  // the format's version
  m.name = r.string(root, "", "name", false).value_or("model");
  r.string(root, "", "source", false);
  r.integer(root, "", "measured_batch", false, 1, std::int64_t{1} << 30);
  m.tokens_per_sample =
      static_cast<std::uint64_t>(r.integer(root, "", "tokens_per_sample", false, 0, std::int64_t{1} << 40).value_or(0));
  if (YAML::Node in = root["input"]; in.IsDefined() && !in.IsSequence()) r.error(in, "input", "expected a list (one sample's shape)");
  const YAML::Node layers = root["layers"];
  if (!layers.IsDefined() || !layers.IsSequence() || layers.size() == 0)
    r.error(layers.IsDefined() ? layers : root, "layers", "expected a non-empty list of layers");
  else
    for (const YAML::Node& l : layers) read_layer(r, l, "layers[" + std::to_string(m.layers.size()) + "]", m);
  if (r.ok()) read_grad_order(r, root["grad_order"], m);
  if (r.ok() && m.parameter_count() == 0) r.error(layers, "layers", "the model has no parameters");
  r.finish();
  return m;
}

sim::ModelSpec load_model_file(const std::string& path) { return parse_model_file(path, read_text_file(path)); }

}  // namespace ddpsim::app
