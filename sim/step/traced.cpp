#include "sim/step/traced.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace ddpsim::sim {

GpuRatio gpu_ratio(const TracedModel& t, const GpuSpec& target, Precision p)
{
  GpuRatio r;
  if (!t.gpu || t.cpu_only || t.gpu->name == target.name) return r;
  const double f_from = t.gpu->peak_flops(p), f_to = target.peak_flops(p);
  const double b_from = t.gpu->hbm.bytes_per_s, b_to = target.hbm.bytes_per_s;
  if (f_from <= 0 || f_to <= 0 || b_from <= 0 || b_to <= 0) return r;
  // Kernel time goes as 1 / throughput: compute-bound kernels with FLOP/s, memory-bound ones with
  // HBM bandwidth. Which share is which is not in the trace, so the point is the geometric mean
  // and the interval spans both.
  r.flops = f_from / f_to;
  r.hbm = b_from / b_to;
  r.point = std::sqrt(r.flops * r.hbm);
  r.low = std::min(r.flops, r.hbm);
  r.high = std::max(r.flops, r.hbm);
  r.scaled = true;
  return r;
}

ModelSpec traced_model_spec(std::shared_ptr<const TracedModel> t, const std::string& name)
{
  DDPSIM_CHECK(t && !t->layers.empty(), "a traced model needs layers");
  ModelSpec m;
  m.name = name;
  for (const TracedLayer& l : t->layers) m.layers.push_back(Layer{l.name, {}, 0, 0, 0, 0});
  // ddp_buckets walks layers backwards and a layer's tensors backwards: within a layer, the
  // buckets are stored in reverse launch order.
  for (std::size_t b = t->buckets.size(); b-- > 0;) {
    const TracedBucket& tb = t->buckets[b];
    DDPSIM_CHECK(tb.layer < m.layers.size(), "traced bucket in an unknown layer");
    m.layers[tb.layer].params.push_back(Tensor{"bucket" + std::to_string(b), tb.elements});
  }
  m.traced = std::move(t);
  return m;
}

double traced_compute_factor(const TracedModel& t, double kernel_ratio)
{
  double total = 0, kernels = 0;
  for (const TracedLayer& l : t.layers) {
    total += (l.forward + l.backward).seconds();
    kernels += (l.forward_gpu + l.backward_gpu).seconds();
  }
  if (total <= 0) return 1;
  return (total - kernels + kernels * kernel_ratio) / total;
}

}  // namespace ddpsim::sim
