#include "sim/step/compute.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "core/error.hpp"
#include "sim/step/precision.hpp"
#include "sim/step/traced.hpp"

namespace ddpsim::sim {

namespace {

// Issue 19: measured layer times (model.trace); only the kernel part scales to another GPU.
LayerTimes traced_times(const TracedModel& t, const GpuSpec& gpu, const ComputeParams& params)
{
  const double k = gpu_ratio(t, gpu, params.precision).point;
  auto scaled = [&](Time wall, Time kernels) {
    return Time::from_seconds((wall.seconds() - kernels.seconds() + kernels.seconds() * k) / params.speedup);
  };
  LayerTimes out;
  for (const TracedLayer& l : t.layers) {
    out.forward.push_back(scaled(l.forward, l.forward_gpu));
    out.backward.push_back(scaled(l.backward, l.backward_gpu));
    out.forward_total += out.forward.back();
    out.backward_total += out.backward.back();
  }
  return out;
}

// Bytes of an eager framework's elementwise kernels (model.hpp ElementwiseTraffic).
double elementwise_bytes(const ElementwiseTraffic& t, double elem, bool amp)
{
  return amp ? elem * t.act + 4 * t.wide + 6 * t.cast + t.bytes : elem * (t.act + t.wide) + t.bytes;
}

// Whether cuDNN runs this precision's convolutions on tensor cores, which want NHWC: 16 bits on
// a GPU with fp16 or bf16 tensor cores, tf32 where the GPU has it (PyTorch's
// torch.backends.cudnn.allow_tf32 is on by default); fp32 runs NCHW kernels of its own.
bool tensor_core_convs(const GpuSpec& gpu, Precision p)
{
  switch (p) {
    case Precision::fp16: return gpu.fp16_tflops > gpu.fp32_tflops;
    case Precision::bf16: return gpu.bf16_tflops > 0;
    case Precision::tf32: return gpu.tf32_tflops > 0;
    case Precision::fp32: return false;
  }
  return false;
}

}  // namespace

double slowest_gpu_factor(int gpus, double sigma)
{
  DDPSIM_CHECK(gpus >= 1 && sigma >= 0, "slowest_gpu_factor: gpus >= 1, sigma >= 0");
  if (gpus == 1 || sigma == 0) return 1.0;
  const double n = gpus;
  const double expected_max = boost::math::quantile(boost::math::normal(), (n - 0.375) / (n + 0.25));
  return std::exp(sigma * expected_max);
}

LayerTimes layer_times(const ModelSpec& model, const GpuSpec& gpu, const ComputeParams& params)
{
  if (model.traced) {
    DDPSIM_CHECK(model.traced->layers.size() == model.layers.size(), "traced layers do not match the model");
    DDPSIM_CHECK(params.speedup > 0, "compute speedup must be positive");
    return traced_times(*model.traced, gpu, params);
  }
  DDPSIM_CHECK(params.efficiency > 0 && params.efficiency <= 1, "compute efficiency out of (0, 1]");
  DDPSIM_CHECK(params.speedup > 0, "compute speedup must be positive");
  const double peak = gpu.peak_flops(params.precision) * params.efficiency;
  const double elem = bytes_per_element(params.precision);
  const double batch = params.batch_per_gpu;
  std::vector<double> fwd, bwd;
  double fwd_sum = 0, bwd_sum = 0;
  const std::vector<int> blocks = params.activation_checkpointing ? checkpoint_blocks(model) : std::vector<int>();
  // Eager NCHW convolutions on tensor cores pay cuDNN's layout conversions (model.hpp); a compiler
  // (inductor's layout optimisation, XLA, TensorFlow's layout optimizer) runs them NHWC.
  const bool nchw = model.eager_kernels && !params.channels_last && tensor_core_convs(gpu, params.precision);
  // Batch norm: the roofline counts 2 passes forward (read, write) and 4 backward, which stands for
  // cuDNN's kernels (closed; the persistent NHWC ones may read less). PyTorch calls cuDNN unless
  // the input or the weight is bf16, or the input is fp16 with fp16 weights (a model in 16 bits;
  // autocast keeps the weights fp32): aten/src/ATen/native/Normalization.cpp,
  // _select_batch_norm_backend. Its own kernels take two per pass (ATen/native/cuda/
  // Normalization.cuh): statistics (read) then transform (read, write) forward, backward_reduce
  // (read grad and input) then backward_elemt (read both, write): 3 and 5 passes, one more each way.
  const bool native_bn =
      model.eager_kernels && (params.precision == Precision::bf16 || (params.precision == Precision::fp16 && !params.amp));
  auto at_hbm = [&](double bytes_per_sample) { return bytes_per_sample * batch / gpu.hbm.bytes_per_s; };
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    double weights = 0;
    for (const Tensor& t : l.params) weights += static_cast<double>(t.numel);
    // Forward reads weights and writes activations; backward reads both and writes gradients of
    // both, so about twice the traffic.
    const double bytes_fwd = (weights + 2 * l.activation_elems_per_sample * batch) * elem;
    double f = std::max(l.fwd_flops_per_sample * batch / peak, bytes_fwd / gpu.hbm.bytes_per_s);
    double b = std::max(l.fwd_flops_per_sample * batch * backward_factor(model, l) / peak, 2 * bytes_fwd / gpu.hbm.bytes_per_s);
    if (model.eager_kernels) {  // separate kernels: their time adds to the layer's
      f += at_hbm(elementwise_bytes(l.eager_fwd, elem, params.amp));
      b += at_hbm(elementwise_bytes(l.eager_bwd, elem, params.amp));
    }
    if (nchw) {
      f += at_hbm(l.nchw_transposes_fwd * elem);
      b += at_hbm(l.nchw_transposes_bwd * elem);
    }
    if (native_bn && l.batch_norm) {  // one more read of the input each way (see native_bn)
      f += at_hbm(l.activation_elems_per_sample * elem);
      b += at_hbm(l.activation_elems_per_sample * elem);
    }
    if (!blocks.empty() && blocks[i] >= 0) b += f;  // activation checkpointing: forward again (precision.hpp)
    fwd.push_back(f);
    bwd.push_back(b);
    fwd_sum += f;
    bwd_sum += b;
  }
  const double overhead = params.kernel_overhead.seconds();
  double scale = 1.0 / params.speedup;
  double extra = overhead / params.speedup;
  if (params.measured_step_s) {
    // Keep the roofline's proportions, scale to the measurement (overheads included in it).
    const double modelled = fwd_sum + bwd_sum + 2 * overhead * static_cast<double>(model.layers.size());
    DDPSIM_CHECK(modelled > 0, "model has no compute");
    scale = *params.measured_step_s / modelled / params.speedup;
    extra = overhead * scale;
  }
  LayerTimes out;
  for (std::size_t i = 0; i < fwd.size(); ++i) {
    out.forward.push_back(Time::from_seconds(fwd[i] * scale + extra));
    out.backward.push_back(Time::from_seconds(bwd[i] * scale + extra));
    out.forward_total += out.forward.back();
    out.backward_total += out.backward.back();
  }
  return out;
}

Time optimizer_time(const ModelSpec& model, const GpuSpec& gpu, Optimizer opt)
{
  // fp32 master state. SGD with momentum reads param, grad, momentum and writes param, momentum
  // (5 x 4 B); Adam reads param, grad, m, v and writes param, m, v (7 x 4 B).
  const double bytes_per_param = opt == Optimizer::sgd ? 20.0 : 28.0;
  return Time::from_seconds(static_cast<double>(model.parameter_count()) * bytes_per_param / gpu.hbm.bytes_per_s);
}

}  // namespace ddpsim::sim
