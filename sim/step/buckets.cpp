#include "sim/step/buckets.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

std::vector<TensorRef> gradient_ready_order(const ModelSpec& model)
{
  std::vector<TensorRef> order;
  if (!model.grad_order.empty()) {
    for (const TensorRef& t : model.grad_order) {
      DDPSIM_CHECK(t.layer < model.layers.size() && t.tensor < model.layers[t.layer].params.size(),
                   "grad_order names a tensor the model does not have");
      if (model.layers[t.layer].params[t.tensor].grad) order.push_back(t);
    }
    return order;
  }
  for (std::size_t li = model.layers.size(); li-- > 0;)
    for (std::size_t ti = model.layers[li].params.size(); ti-- > 0;)
      if (model.layers[li].params[ti].grad) order.push_back(TensorRef{li, ti});
  return order;
}

std::vector<Bucket> ddp_buckets(const ModelSpec& model, int bytes_per_element, Bytes first_cap, Bytes cap)
{
  DDPSIM_CHECK(bytes_per_element > 0 && cap.n > 0, "bucket sizes must be positive");
  std::vector<Bucket> buckets;
  Bucket current;
  Bytes limit = first_cap.n > 0 ? first_cap : cap;
  for (const TensorRef& t : gradient_ready_order(model)) {
    current.tensors.push_back(t);
    current.bytes += Bytes{model.layers[t.layer].params[t.tensor].numel * static_cast<std::uint64_t>(bytes_per_element)};
    // A traced model's tensors are the buckets the job really formed (sim/step/traced.hpp).
    if (current.bytes >= limit || model.traced) {
      buckets.push_back(std::move(current));
      current = Bucket{};
      limit = cap;
    }
  }
  if (!current.tensors.empty()) buckets.push_back(std::move(current));
  return buckets;
}

}  // namespace ddpsim::sim
