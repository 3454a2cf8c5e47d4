// torchvision's image classifiers at 224x224, tensor for tensor in registration order
// (torchvision/models/resnet.py and vgg.py). Forward FLOPs count a multiply-add as 2 FLOPs;
// batch norm as 4 FLOPs per output element (normalise, scale, shift), pooling and ReLU as free.
// Eager kernels (model.kernels: eager; model.hpp ElementwiseTraffic), read in resnet.py and
// autograd: an in-place ReLU reads and writes its tensor (2 passes) and its backward
// (threshold_backward) reads the gradient and the output and writes the gradient (3); `out +=
// identity` reads two and writes one (3), its backward passes the gradient through; a block's
// input feeds two branches, so autograd sums its two gradients (3 passes of the input). VGG's
// classifier adds two dropouts (2 passes and a 1-byte mask each way). Max pooling is not
// counted (one per model; its int64 indices and backward scatter, about 1.5 passes of the stem's
// output).
#include "core/error.hpp"
#include "sim/step/model_zoo.hpp"

namespace ddpsim::sim {
namespace {

// Builds a CNN layer by layer, tracking the square spatial size for FLOPs.
class CnnBuilder {
 public:
  explicit CnnBuilder(ModelSpec& m) : m_(m) {}

  // A k x k convolution with "same" padding (as every conv in these models), optionally with bias.
  void conv(const std::string& name, std::uint64_t cin, std::uint64_t cout, int k, int stride, bool bias = false)
  {
    const double in_elems = static_cast<double>(cin) * hw_ * hw_;
    hw_ = (hw_ + stride - 1) / stride;
    const double out_elems = static_cast<double>(cout) * hw_ * hw_;
    Layer l{name, {{name + ".weight", cout * cin * static_cast<std::uint64_t>(k * k)}},
            2.0 * static_cast<double>(cin) * k * k * out_elems, out_elems};
    if (bias) l.params.push_back({name + ".bias", cout});
    // NCHW layout conversions (model.hpp): the stem's input is the image, which needs no gradient.
    l.nchw_transposes_fwd = 2 * (in_elems + out_elems);
    l.nchw_transposes_bwd = (stem_ ? 1 : 2) * l.nchw_transposes_fwd;
    stem_ = false;
    m_.layers.push_back(std::move(l));
  }
  void bn(const std::string& name, std::uint64_t c)
  {
    const double out_elems = static_cast<double>(c) * hw_ * hw_;
    m_.layers.push_back(Layer{name, {{name + ".weight", c}, {name + ".bias", c}}, 4.0 * out_elems, out_elems});
    m_.layers.back().batch_norm = true;
    m_.batch_norm = true;
  }
  void pool2() { hw_ = (hw_ + 1) / 2; }
  int hw() const { return hw_; }
  // An in-place ReLU on the last layer's output.
  void relu()
  {
    Layer& l = m_.layers.back();
    l.eager_fwd.act += 2 * l.activation_elems_per_sample;
    l.eager_bwd.act += 3 * l.activation_elems_per_sample;
  }
  // `out += identity` on the last layer's output, then its ReLU.
  void residual_relu()
  {
    m_.layers.back().eager_fwd.act += 3 * m_.layers.back().activation_elems_per_sample;
    relu();
  }
  // Dropout on the last layer's output: 2 passes and the mask, forward and backward.
  void dropout()
  {
    Layer& l = m_.layers.back();
    for (ElementwiseTraffic* t : {&l.eager_fwd, &l.eager_bwd}) {
      t->act += 2 * l.activation_elems_per_sample;
      t->bytes += l.activation_elems_per_sample;
    }
  }
  void set_hw(int hw) { hw_ = hw; }
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
  bool stem_ = true;  // the next convolution is the first (its input is the image)
};

// torchvision ResNet: BasicBlock (expansion 1) for resnet18/34, Bottleneck (expansion 4, stride
// on the 3x3 conv: "ResNet v1.5") for resnet50/101/152.
ModelSpec make_resnet(const std::string& name, const int (&blocks)[4], bool bottleneck, int num_classes)
{
  if (num_classes < 1) throw UserError("num_classes must be positive");
  ModelSpec m{name, {}};
  CnnBuilder b(m);
  b.conv("conv1", 3, 64, 7, 2);
  b.bn("bn1", 64);
  b.relu();
  b.pool2();
  const std::uint64_t widths[4] = {64, 128, 256, 512};
  const std::uint64_t expansion = bottleneck ? 4 : 1;
  std::uint64_t inplanes = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const std::uint64_t w = widths[stage], out = w * expansion;
    for (int i = 0; i < blocks[stage]; ++i) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(i) + ".";
      const int stride = (i == 0 && stage > 0) ? 2 : 1;
      const int input_hw = b.hw();
      const double input_elems = static_cast<double>(inplanes) * input_hw * input_hw;
      const std::size_t conv1 = m.layers.size();
      if (bottleneck) {
        b.conv(p + "conv1", inplanes, w, 1, 1);
        b.bn(p + "bn1", w);
        b.relu();
        b.conv(p + "conv2", w, w, 3, stride);
        b.bn(p + "bn2", w);
        b.relu();
        b.conv(p + "conv3", w, out, 1, 1);
        b.bn(p + "bn3", out);
      } else {
        b.conv(p + "conv1", inplanes, w, 3, stride);
        b.bn(p + "bn1", w);
        b.relu();
        b.conv(p + "conv2", w, w, 3, 1);
        b.bn(p + "bn2", w);
      }
      if (i == 0 && (stride != 1 || inplanes != out)) {
        b.set_hw(input_hw);  // downsample.0: a 1x1 conv with the block's stride, on the block's input
        b.conv(p + "downsample.0", inplanes, out, 1, stride);
        b.bn(p + "downsample.1", out);
      }
      b.residual_relu();
      m.layers[conv1].eager_bwd.act += 3 * input_elems;  // the block input's two gradients summed (conv1's backward)
      inplanes = out;
    }
  }
  b.linear("fc", 512 * expansion, static_cast<std::uint64_t>(num_classes));
  return m;
}

}  // namespace

ModelSpec make_resnet18(int num_classes) { return make_resnet("resnet18", {2, 2, 2, 2}, false, num_classes); }
ModelSpec make_resnet50(int num_classes) { return make_resnet("resnet50", {3, 4, 6, 3}, true, num_classes); }
ModelSpec make_resnet101(int num_classes) { return make_resnet("resnet101", {3, 4, 23, 3}, true, num_classes); }

ModelSpec make_vgg16(int num_classes)
{
  if (num_classes < 1) throw UserError("num_classes must be positive");
  // torchvision cfg "D": 0 = max pool. nn.Sequential indices count the ReLUs and pools too, so
  // the convs are features.0, features.2, features.5, ...
  const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};
  ModelSpec m{"vgg16", {}};
  CnnBuilder b(m);
  std::uint64_t in = 3;
  int index = 0;
  for (int c : cfg) {
    if (c == 0) {
      b.pool2();
      index += 1;
    } else {
      b.conv("features." + std::to_string(index), in, static_cast<std::uint64_t>(c), 3, 1, /*bias=*/true);
      b.relu();
      in = static_cast<std::uint64_t>(c);
      index += 2;  // conv, ReLU
    }
  }
  // AdaptiveAvgPool2d((7, 7)), then classifier: Linear, ReLU, Dropout, Linear, ReLU, Dropout, Linear.
  b.linear("classifier.0", 512 * 7 * 7, 4096);
  b.relu();
  b.dropout();
  b.linear("classifier.3", 4096, 4096);
  b.relu();
  b.dropout();
  b.linear("classifier.6", 4096, static_cast<std::uint64_t>(num_classes));
  return m;
}

}  // namespace ddpsim::sim
