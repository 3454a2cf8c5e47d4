// Sharded data parallel: DeepSpeed ZeRO stages 1-3 and PyTorch FSDP (FULL_SHARD) as framework
// choices. What each shards (ZeRO paper, Rajbhandari et al., SC20, arXiv 1910.02054, sections
// 5.1-5.3; FSDP paper, Zhao et al., VLDB 2023, arXiv 2304.11277):
//   zero-1  optimizer state (incl. fp32 master weights) / N
//   zero-2  + gradients / N
//   zero-3  + parameters / N           fsdp (FULL_SHARD) shards as zero-3
// Communication is a list of collective jobs (op, bytes, when), so whoever prices collectives
// (today the algorithm's phases() through the network backend; later sim::CollectiveModel) can
// route them. Per step:
//   all:     gradients reduce-scatter in buckets during backward (instead of DDP's all-reduce);
//   zero-1/2: after the optimizer step every rank all-gathers the updated parameters (Psi bytes);
//   zero-3, fsdp: every layer's parameters are all-gathered before its forward and again before its
//            backward (prefetched one ahead), and freed afterwards: 3 Psi in total (ZeRO 7.2.2).
// The CollectiveModel prices each job (NCCL's choice among the algorithms that implement the op:
// rings for ReduceScatter/AllGather as modelled).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "algorithms/schedule.hpp"
#include "core/units.hpp"
#include "sim/network/network.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/frameworks.hpp"
#include "sim/step/model.hpp"

namespace ddpsim::sim {

ShardStage shard_stage(Framework f);  // traits(f).shard (frameworks.hpp)
// The collective that reduces gradients: reduce-scatter for every sharded framework (DeepSpeed
// stages 1 and 2 share one reduce-scatter path, deepspeed/runtime/zero/stage_1_and_2.py), else
// all-reduce.
algo::CollectiveOp gradient_op(Framework f);

enum class When { forward, backward, after_step };
std::string_view to_string(When w);

// One parameter all-gather of a sharded framework.
struct ShardedJob {
  algo::CollectiveOp op = algo::CollectiveOp::all_gather;
  Bytes bytes;            // the gathered buffer (nccl-tests "size")
  When when = When::forward;
  std::size_t layer = 0;  // forward/backward: the layer it feeds (registration order)
};

// The parameter all-gathers of one optimizer step, in launch order; empty for non-sharded
// frameworks. `bytes_per_element` is the parameters' storage in compute precision; `bucket`
// caps the after-step gathers (DeepSpeed allgather_bucket_size).
std::vector<ShardedJob> parameter_gathers(const ModelSpec& model, Framework f, int bytes_per_element, Bytes bucket);

struct GatherCost {
  Time busy{0};     // sum of the gathers' durations
  Time exposed{0};  // how much they lengthen the step
};

// Prices the gathers on the network: forward (and backward) gathers run on their own stream,
// prefetched in order from the pass's start, and layer i starts when both layer i-1 and gather i
// are done; the after-step gathers run back to back after the optimizer, fully exposed.
// `collective` gives the schedule of one (op, bytes) collective.
// With k micro-steps (gradient accumulation) the forward and backward gathers repeat k times.
GatherCost price_gathers(const std::vector<ShardedJob>& jobs, const LayerTimes& times, int accum_steps,
                         NetworkBackend& network,
                         const std::function<algo::CoarseSchedule(algo::CollectiveOp, Bytes)>& collective);

}  // namespace ddpsim::sim
