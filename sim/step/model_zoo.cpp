#include "sim/step/model_zoo.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

std::uint64_t ModelSpec::parameter_count() const
{
  std::uint64_t n = 0;
  for (const Layer& l : layers)
    for (const Tensor& t : l.params) n += t.numel;
  return n;
}

std::uint64_t ModelSpec::trainable_count() const
{
  std::uint64_t n = 0;
  for (const Layer& l : layers)
    for (const Tensor& t : l.params) n += t.grad ? t.numel : 0;
  return n;
}

std::size_t ModelSpec::trainable_tensor_count() const
{
  std::size_t n = 0;
  for (const Layer& l : layers)
    for (const Tensor& t : l.params) n += t.grad ? 1 : 0;
  return n;
}

std::size_t ModelSpec::tensor_count() const
{
  std::size_t n = 0;
  for (const Layer& l : layers) n += l.params.size();
  return n;
}

double ModelSpec::fwd_flops_per_sample() const
{
  double f = 0;
  for (const Layer& l : layers) f += l.fwd_flops_per_sample;
  return f;
}

ElementwiseTraffic ModelSpec::eager_traffic(bool backward) const
{
  ElementwiseTraffic t;
  for (const Layer& l : layers) t += backward ? l.eager_bwd : l.eager_fwd;
  return t;
}

double ModelSpec::nchw_transposes(bool backward) const
{
  double t = 0;
  for (const Layer& l : layers) t += backward ? l.nchw_transposes_bwd : l.nchw_transposes_fwd;
  return t;
}

ModelSpec make_mlp(const std::vector<std::uint64_t>& widths)
{
  if (widths.size() < 2) throw UserError("an mlp needs at least two widths (inputs and one layer)");
  ModelSpec m{"mlp", {}};
  for (std::size_t i = 1; i < widths.size(); ++i) {
    const std::uint64_t in = widths[i - 1], out = widths[i];
    if (in == 0 || out == 0) throw UserError("mlp widths must be positive");
    std::string name = "fc" + std::to_string(i);
    m.layers.push_back(Layer{name,
                             {{name + ".weight", in * out}, {name + ".bias", out}},
                             2.0 * static_cast<double>(in) * static_cast<double>(out),
                             static_cast<double>(out)});
  }
  return m;
}

const std::vector<PresetInfo>& model_presets()
{
  static const std::vector<PresetInfo> presets{
      {"mlp", "stack of nn.Linear layers; `widths`: inputs, then each layer's outputs", 0},
      {"resnet18", "torchvision ResNet-18, 224x224, 11,689,512 parameters", 0},
      {"resnet50", "torchvision ResNet-50, 224x224, 25,557,032 parameters", 0},
      {"resnet101", "torchvision ResNet-101, 224x224, 44,549,160 parameters", 0},
      {"vgg16", "torchvision VGG-16, 224x224, 138,357,544 parameters", 0},
      {"bert-base", "Hugging Face BertModel bert-base-uncased (with pooler), 109,482,240 parameters", 128},
      {"bert-large", "Hugging Face BertModel bert-large-uncased (with pooler), 335,141,888 parameters", 128},
      {"gpt2", "Hugging Face GPT2Model gpt2 (LM head tied to wte), 124,439,808 parameters", 1024},
      {"gpt2-xl", "Hugging Face GPT2Model gpt2-xl (LM head tied to wte), 1,557,611,200 parameters", 1024},
  };
  return presets;
}

ModelSpec make_preset(std::string_view name, const std::vector<std::uint64_t>& mlp_widths, std::uint64_t seq_len)
{
  std::uint64_t default_seq = 0;
  for (const PresetInfo& p : model_presets())
    if (p.name == name) default_seq = p.default_seq_len;
  const std::uint64_t seq = seq_len > 0 ? seq_len : default_seq;
  if (name == "mlp") return make_mlp(mlp_widths);
  if (name == "resnet18") return make_resnet18();
  if (name == "resnet50") return make_resnet50();
  if (name == "resnet101") return make_resnet101();
  if (name == "vgg16") return make_vgg16();
  if (name == "bert-base") return make_bert_base(seq);
  if (name == "bert-large") return make_bert_large(seq);
  if (name == "gpt2") return make_gpt2_small(seq);
  if (name == "gpt2-xl") return make_gpt2_xl(seq);
  std::string valid;
  for (const PresetInfo& p : model_presets()) valid += (valid.empty() ? "" : ", ") + std::string(p.name);
  throw UserError("unknown model preset \"" + std::string(name) + "\" (valid: " + valid + ")");
}

}  // namespace ddpsim::sim
