#include "sim/model_zoo.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

std::uint64_t ModelSpec::parameter_count() const
{
  std::uint64_t n = 0;
  for (const Layer& l : layers)
    for (const Tensor& t : l.params) n += t.numel;
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

namespace {

// Builds torchvision's ResNet layer by layer, tracking the spatial size for FLOPs.
class ResNetBuilder {
 public:
  explicit ResNetBuilder(ModelSpec& m) : m_(m) {}

  void conv(const std::string& name, std::uint64_t cin, std::uint64_t cout, int k, int stride)
  {
    hw_ = (hw_ + stride - 1) / stride;  // "same" padding as torchvision's convs
    const double out_elems = static_cast<double>(cout) * hw_ * hw_;
    m_.layers.push_back(Layer{name,
                              {{name + ".weight", cout * cin * static_cast<std::uint64_t>(k * k)}},
                              2.0 * static_cast<double>(cin) * k * k * out_elems,
                              out_elems});
  }
  void bn(const std::string& name, std::uint64_t c)
  {
    const double out_elems = static_cast<double>(c) * hw_ * hw_;
    m_.layers.push_back(Layer{name, {{name + ".weight", c}, {name + ".bias", c}}, 4.0 * out_elems, out_elems});
  }
  void maxpool() { hw_ = (hw_ + 1) / 2; }
  void linear(const std::string& name, std::uint64_t in, std::uint64_t out)
  {
    m_.layers.push_back(Layer{name,
                              {{name + ".weight", in * out}, {name + ".bias", out}},
                              2.0 * static_cast<double>(in) * static_cast<double>(out),
                              static_cast<double>(out)});
  }
 private:
  ModelSpec& m_;
  int hw_ = 224;
};

}  // namespace

ModelSpec make_resnet50(int num_classes)
{
  ModelSpec m{"resnet50", {}};
  ResNetBuilder b(m);
  b.conv("conv1", 3, 64, 7, 2);
  b.bn("bn1", 64);
  b.maxpool();
  const int blocks[4] = {3, 4, 6, 3};
  const std::uint64_t widths[4] = {64, 128, 256, 512};
  std::uint64_t inplanes = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const std::uint64_t w = widths[stage], out = w * 4;
    for (int i = 0; i < blocks[stage]; ++i) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(i) + ".";
      const int stride = (i == 0 && stage > 0) ? 2 : 1;  // torchvision v1.5: stride on the 3x3 conv
      b.conv(p + "conv1", inplanes, w, 1, 1);
      b.bn(p + "bn1", w);
      b.conv(p + "conv2", w, w, 3, stride);
      b.bn(p + "bn2", w);
      b.conv(p + "conv3", w, out, 1, 1);
      b.bn(p + "bn3", out);
      if (i == 0) {
        // downsample.0 is a 1x1 conv with the block's stride: its output (and FLOPs) is at the
        // block's output size, which conv2 above already reached, so it is built with stride 1.
        b.conv(p + "downsample.0", inplanes, out, 1, 1);
        b.bn(p + "downsample.1", out);
      }
      inplanes = out;
    }
  }
  b.linear("fc", 2048, static_cast<std::uint64_t>(num_classes));
  return m;
}

}  // namespace ddpsim::sim

namespace ddpsim::sim {

const std::vector<PresetInfo>& model_presets()
{
  static const std::vector<PresetInfo> presets{
      {"mlp", "stack of nn.Linear layers; `widths`: inputs, then each layer's outputs"},
      {"resnet50", "torchvision ResNet-50, 224x224, 25,557,032 parameters"},
  };
  return presets;
}

ModelSpec make_preset(std::string_view name, const std::vector<std::uint64_t>& mlp_widths)
{
  if (name == "mlp") return make_mlp(mlp_widths);
  if (name == "resnet50") return make_resnet50();
  std::string valid;
  for (const PresetInfo& p : model_presets()) valid += (valid.empty() ? "" : ", ") + std::string(p.name);
  throw UserError("unknown model preset \"" + std::string(name) + "\" (valid: " + valid + ")");
}

}  // namespace ddpsim::sim
