// DDP gradient buckets as PyTorch's Reducer forms them in steady state (after the first
// iteration's rebuild): parameters are taken in the order their gradients become ready, which is
// reverse registration order; the first bucket is capped at `first_cap` (1 MiB,
// _DEFAULT_FIRST_BUCKET_BYTES) and every later one at `cap` (bucket_cap_mb, 25 MiB); a bucket
// closes as soon as its size reaches its cap, so it may exceed it.
// (torch/csrc/distributed/c10d/reducer.cpp, compute_bucket_assignment_by_size.)
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.hpp"
#include "sim/step/model.hpp"

namespace ddpsim::sim {

struct TensorRef {
  std::size_t layer = 0;   // index in ModelSpec::layers
  std::size_t tensor = 0;  // index in Layer::params
};

struct Bucket {
  std::vector<TensorRef> tensors;  // in the order they were added (gradient-ready order)
  Bytes bytes;
};

std::vector<Bucket> ddp_buckets(const ModelSpec& model, int bytes_per_element, Bytes first_cap, Bytes cap);

}  // namespace ddpsim::sim
