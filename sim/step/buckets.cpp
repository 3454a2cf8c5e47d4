#include "sim/step/buckets.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

std::vector<Bucket> ddp_buckets(const ModelSpec& model, int bytes_per_element, Bytes first_cap, Bytes cap)
{
  DDPSIM_CHECK(bytes_per_element > 0 && cap.n > 0, "bucket sizes must be positive");
  std::vector<Bucket> buckets;
  Bucket current;
  Bytes limit = first_cap.n > 0 ? first_cap : cap;
  for (std::size_t li = model.layers.size(); li-- > 0;) {
    const Layer& layer = model.layers[li];
    for (std::size_t ti = layer.params.size(); ti-- > 0;) {
      current.tensors.push_back(TensorRef{li, ti});
      current.bytes += Bytes{layer.params[ti].numel * static_cast<std::uint64_t>(bytes_per_element)};
      // A traced model's tensors are the buckets the job really formed (sim/step/traced.hpp).
      if (current.bytes >= limit || model.traced) {
        buckets.push_back(std::move(current));
        current = Bucket{};
        limit = cap;
      }
    }
  }
  if (!current.tensors.empty()) buckets.push_back(std::move(current));
  return buckets;
}

}  // namespace ddpsim::sim
