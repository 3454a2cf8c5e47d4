// A framework's gradient reduction as a process on the event engine: it is told when each layer's
// gradients are ready (on every rank) and releases reductions (CommJob: tensors, wire bytes,
// release time) as the framework would launch them.
//   DDP (pytorch-ddp, lightning, parameter-server, gloo): a bucket is released when its last
//     gradient arrives (PyTorch's Reducer, docs/model.md).
//   SMDDP: DDP's buckets go into the balanced fusion buffer, released once it exceeds its
//     threshold; what is left goes when the last bucket arrives.
//   Horovod: a background thread wakes every cycle time (at options.cycle_phase + k x cycle), fuses the tensors that
//     became ready since in ready order into buffers of at most the fusion threshold, and
//     releases them (horovod/common/operations.cc RunLoopOnce, controller.cc FuseResponses).
#pragma once

#include <memory>
#include <vector>

#include "sim/engine/engine.hpp"
#include "sim/step/frameworks.hpp"

namespace ddpsim::sim {

class GradientReducer {
 public:
  virtual ~GradientReducer() = default;
  // Layer `layer`'s gradients are ready on every rank, at engine.now().
  virtual void gradient_ready(Engine& engine, std::size_t layer) = 0;
  // Reductions released so far, in launch order (ready = release time).
  const std::vector<CommJob>& released() const { return released_; }
  // Horovod: background cycles that released something (each paid a negotiation); 0 for the others.
  int cycles() const { return cycles_; }

 protected:
  std::vector<CommJob> released_;
  int cycles_ = 0;
};

// The reducer of options.framework for `model` (which must outlive it).
std::unique_ptr<GradientReducer> make_reducer(const ModelSpec& model, const FrameworkOptions& options);

}  // namespace ddpsim::sim
