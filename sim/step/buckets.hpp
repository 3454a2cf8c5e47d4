// DDP gradient buckets as PyTorch's Reducer forms them in steady state, after the rebuild at the
// first iteration (Reducer::rebuild_buckets -> compute_bucket_assignment_by_size, with the
// parameters in the order their gradients became ready; torch/csrc/distributed/c10d/reducer.cpp,
// v1.13 and later): tensors are taken in gradient-ready order (the model's grad_order when it has
// one, measured on the real module by scripts/export_model.py; else reverse registration order,
// layer by layer); tensors without a gradient are left out; a bucket closes as soon as its size
// reaches its cap (so it may exceed it); the first bucket's cap is `first_cap`
// (kDefaultFirstBucketBytes, 1 MiB) and every later one's `cap` (bucket_cap_mb, 25 MiB).
// All gradients have one element size here (the training precision's), so there is one bucket
// key (dtype, device) and no sorting. Equal byte for byte to the real Reducer on 10 torchvision
// models x 2 caps: tests/pytorch/ddp_buckets.py (ctest -R pytorch.ddp_buckets).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/nccl_tuning.hpp"
#include "core/units.hpp"
#include "sim/step/model.hpp"

namespace ddpsim::sim {

struct Bucket {
  std::vector<TensorRef> tensors;  // in the order they were added (gradient-ready order)
  Bytes bytes;
};

// A bucket's collective as the iteration ran it (sim/step/iteration.hpp): its bytes, when the
// framework released it, when it ran, and what NCCL (or the library) ran it with.
struct BucketTiming {
  Bytes bytes;
  Time ready{0}, start{0}, end{0};
  const algo::Algorithm* algorithm = nullptr;
  std::optional<algo::Protocol> protocol;
  int channels = 1;
};

// The tensors in the order their gradients become ready (see above).
std::vector<TensorRef> gradient_ready_order(const ModelSpec& model);

std::vector<Bucket> ddp_buckets(const ModelSpec& model, int bytes_per_element, Bytes first_cap, Bytes cap);

}  // namespace ddpsim::sim
