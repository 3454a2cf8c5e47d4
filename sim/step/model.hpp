// A neural network as the training model sees it: layers in registration order (the order of
// model.parameters()), each with its parameter tensors and its forward cost per sample.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ddpsim::sim {

struct TracedModel;  // sim/step/traced.hpp

struct Tensor {
  std::string name;
  std::uint64_t numel = 0;
  // False: the tensor gets no gradient (requires_grad=False, or unused in forward): DDP leaves it
  // out of its buckets and the optimizer keeps no state for it (model files, issue 19).
  bool grad = true;
};

// One parameter tensor: layer index in ModelSpec::layers, tensor index in Layer::params.
struct TensorRef {
  std::size_t layer = 0;
  std::size_t tensor = 0;
};

// Issue 18: memory traffic of the elementwise kernels an eager framework runs between the layers
// the roofline counts (ReLU, residual adds and the gradient sums they cause, dropout, autocast's
// casts, Hugging Face's Python GELU, the loss's fp32 logits), per sample, in element passes (one
// element read or written once): `act` in the activation precision; `wide` in fp32 under autocast
// (an op on the autocast fp32 list, or one whose fp32 operand promotes it), in the activation
// precision without it; `cast` autocast's casts between fp32 and 16 bits (4 + 2 bytes each under
// autocast, none without); `bytes` one-byte dropout masks. Charged only with model.kernels: eager
// (sim/step/compute.cpp): a compiler or a fused library folds these into the counted passes.
struct ElementwiseTraffic {
  double act = 0, wide = 0, cast = 0, bytes = 0;
  ElementwiseTraffic& operator+=(const ElementwiseTraffic& o)
  {
    act += o.act, wide += o.wide, cast += o.cast, bytes += o.bytes;
    return *this;
  }
  ElementwiseTraffic operator*(double k) const { return {act * k, wide * k, cast * k, bytes * k}; }
};

struct Layer {
  std::string name;
  std::vector<Tensor> params;          // in registration order
  double fwd_flops_per_sample = 0;     // multiply-add = 2 FLOPs
  double activation_elems_per_sample = 0;  // output elements (memory traffic of the roofline)
  // Memory (sim/step/memory.hpp): elements autograd keeps for this layer's backward, per
  // sample, in the compute precision; negative = the layer's output elements stand in (each
  // layer's output is the next layer's saved input). Plus 1-byte dropout masks.
  double saved_elems_per_sample = -1;
  double saved_mask_bytes_per_sample = 0;
  // Elements autograd keeps in fp32 under autocast (autocast runs pow, softmax and the like in
  // fp32; Hugging Face's loss upcasts the logits), in the compute precision without it.
  double autocast_fp32_elems_per_sample = 0;
  // Attention cores: elements of one heads x seq x seq score matrix per sample (0: not attention).
  // Eager attention keeps the softmax output, the dropout output and the dropout mask of that
  // size; flash attention keeps none of them (sim/step/precision.hpp).
  double attention_scores_per_sample = 0;
  // Elementwise kernels after this layer's own kernel (forward) and their gradients (backward).
  ElementwiseTraffic eager_fwd{}, eager_bwd{};
  // Convolutions: element passes per sample, in the activation precision, of the layout
  // conversions cuDNN adds around a tensor-core convolution whose tensors are NCHW (each of a
  // call's activation operands NCHW -> NHWC and its result back: 2 passes an element). Forward
  // converts the input and the output; backward the same twice (data and weight gradients),
  // once for a stem convolution, whose input needs no gradient. Charged by sim/step/compute.cpp
  // with model.kernels: eager and memory_format: contiguous.
  double nchw_transposes_fwd = 0, nchw_transposes_bwd = 0;
  // A batch norm (its elements: activation_elems_per_sample). Eager bf16 runs PyTorch's own kernels,
  // which read the input once more each way than the roofline counts (sim/step/compute.cpp).
  bool batch_norm = false;
};

struct ModelSpec {
  std::string name;
  std::vector<Layer> layers;           // in registration order
  double backward_flops_factor = 2.0;  // backward = 2 x forward (input and weight gradients)
  // The order autograd makes the gradients ready in (a model file's grad_order, measured on the
  // real module); empty: reverse registration order, layer by layer.
  std::vector<TensorRef> grad_order{};
  // BatchNorm layers (the zoo's convnets): with channels_last, PyTorch runs them through cuDNN's
  // cooperative NHWC kernels (sim/step/overhead_setup.cpp).
  bool batch_norm = false;
  bool flash_attention = false;         // model.attention: flash (attention cores keep no score matrix)
  bool eager_kernels = false;           // model.kernels: eager (Layer::eager_fwd/eager_bwd charged)
  std::uint64_t tokens_per_sample = 0;  // sequence models: tokens per sample (0: not a sequence model)
  // Issue 19: a model measured by a profiler trace (model.trace). Its layer times replace the
  // roofline (compute.hpp) and each of its tensors is one traced DDP bucket (buckets.hpp).
  std::shared_ptr<const TracedModel> traced{};

  std::uint64_t parameter_count() const;
  std::uint64_t trainable_count() const;  // parameters that receive a gradient
  std::size_t tensor_count() const;
  std::size_t trainable_tensor_count() const;  // tensors that receive a gradient (DDP's Reducer, Horovod's cache)
  double fwd_flops_per_sample() const;
  ElementwiseTraffic eager_traffic(bool backward) const;  // summed over the layers, per sample
  double nchw_transposes(bool backward) const;            // summed over the layers, per sample
};

}  // namespace ddpsim::sim
