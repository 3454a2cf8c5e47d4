// Horovod Tensor Fusion (horovod/common/operations.cc RunLoopOnce, controller.cc FuseResponses):
// the background thread wakes every cycle time; the tensors that became ready since are fused, in
// the order they became ready, while `tensor_size + new_tensor_size <= TensorFusionThresholdBytes()`
// (a tensor larger than the threshold is reduced on its own), and the buffers are all-reduced one
// after another. Not modelled: the threshold's rounding up to a multiple of local_size x 8 B x 64
// (none for the MiB defaults) and the 16-byte padding per tensor of batched D2D copies.
// The cycle's phase is taken as starting at the beginning of the step (t = 0).
#include "core/error.hpp"
#include "sim/training/frameworks.hpp"

namespace ddpsim::sim {

std::vector<CommJob> horovod_fusion(const ModelSpec& model, const std::vector<Time>& grad_ready, int wire_bytes,
                                    Bytes threshold, Time cycle)
{
  DDPSIM_CHECK(cycle > Time{0} && threshold.n > 0, "Horovod cycle time and fusion threshold must be positive");
  // Tensors in the order their gradients become ready: reverse registration order, as DDP.
  struct Ready {
    TensorRef ref;
    Bytes bytes;
    Time tick;  // the cycle at which the background thread sees it
  };
  std::vector<Ready> order;
  for (std::size_t li = model.layers.size(); li-- > 0;) {
    const Layer& l = model.layers[li];
    const std::int64_t k = (grad_ready[li] + cycle - Time{1}).ps / cycle.ps;  // first tick at or after ready (checked)
    for (std::size_t ti = l.params.size(); ti-- > 0;)
      order.push_back({{li, ti}, Bytes{l.params[ti].numel * static_cast<std::uint64_t>(wire_bytes)}, cycle * k});
  }
  std::vector<CommJob> jobs;
  CommJob current;
  auto flush = [&] {
    if (!current.tensors.empty()) jobs.push_back(std::move(current));
    current = CommJob{};
  };
  for (const Ready& r : order) {
    // A new cycle or a full buffer closes the current fused buffer.
    if (!current.tensors.empty() && (r.tick != current.ready || current.bytes + r.bytes > threshold)) flush();
    current.tensors.push_back(r.ref);
    current.bytes += r.bytes;
    current.ready = r.tick;
  }
  flush();
  return jobs;
}

}  // namespace ddpsim::sim
