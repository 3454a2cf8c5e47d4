// Helpers shared by the algorithm files: request checks, per-hop software latency, rank groups
// by node, and building phases whose flows are merged per (src, dst) pair. Merging matters: the
// analytical backend times each flow alone, so two channels on the same GPU pair must be one flow
// carrying both channels' bytes, or the pair's link would be counted twice.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

// Throws InternalError for an empty request or an op `algo` does not implement.
void check_request(const Request& req, const Algorithm& algo);

// The per-step software latency of a hop: intra_step inside a node, inter_step across nodes.
Time hop_overhead(const Request& req, VertexId a, VertexId b);

// The ranks grouped by node, in rank order (ranks must be node-major: all of a node's ranks
// contiguous, as ring_order and all_gpus produce).
std::vector<std::vector<VertexId>> ranks_by_node(const Request& req);

// Positions within one node's rank list grouped by the NIC their GPU uses (Topology::nic_of_gpu),
// in order of first appearance. Two GPUs that share a NIC share its link: algorithms that send
// every GPU's shard across the network draw one flow per NIC (from the group's first GPU, with
// the group's bytes), so the analytical backend, which times each flow alone, sees the sharing.
std::vector<std::vector<std::size_t>> nic_groups(const Request& req, const std::vector<VertexId>& node_ranks);

// Splits `total` bytes into `parts` chunks that differ by at most one byte (the first ones larger).
std::vector<Bytes> split_even(Bytes total, std::size_t parts);

// Where each chunk of `chunks` starts when they are laid out back to back from `base`.
std::vector<Bytes> offsets_of(const std::vector<Bytes>& chunks, Bytes base = Bytes{0});

// Cuts the concatenation of `ranges` into consecutive parts of `sizes` bytes (sizes must sum to
// the ranges' total); each part is a list of ranges.
std::vector<std::vector<ByteRange>> cut_ranges(const std::vector<ByteRange>& ranges, const std::vector<Bytes>& sizes);

// Accumulates the flows of one phase, one flow per (kind, src, dst).
class PhaseBuilder {
 public:
  PhaseBuilder(const Request& req, std::string name, int steps);
  void send(VertexId src, VertexId dst, Bytes bytes);
  // `overhead`: a software cost per local task (two processes that share a device exchanging
  // through its memory, as the recursive-doubling all-reduce's host ranks do); 0 for GPU work.
  void local(TaskKind kind, VertexId device, Bytes bytes, Time overhead = Time{0});
  Phase build() const;
  bool empty() const { return flows_.empty(); }

 private:
  const Request& req_;
  Phase phase_;
  std::vector<Flow> flows_;
  // The flows of each source device as a chain through flows_ (head_ by device, next_ by flow):
  // a device has a handful of flows per phase, so a lookup walks a few entries, with no
  // allocation per send (issue 21: an ordered map of (kind, src, dst) took 31 % of a
  // 131,072-rank run, a node-based hash map more).
  // The flow (kind, src, dst), adding it with `overhead()` when absent (called only then).
  template <class Overhead>
  std::uint32_t flow(TaskKind kind, VertexId src, VertexId dst, Overhead overhead);
  std::vector<std::uint32_t> head_, next_;
};

// Accumulates the tasks of a step schedule, one step (a set of tasks that run together) at a
// time. Within a step, sends on the same (src, dst) are merged (the timing needs one flow per
// pair); a merged task whose ranges are not adjacent lists them in StepSchedule::pieces. A task
// of step k depends on the tasks of step k-1 that delivered data to its source and on its
// source's own sends of step k-1. With `lock_step`, a task of step k waits for every task of
// step k-1 instead (a barrier).
class StepBuilder {
 public:
  explicit StepBuilder(const Request& req, bool lock_step = false);
  // A send of [offset, offset + bytes) of the buffer.
  void send(VertexId src, VertexId dst, Bytes bytes, Bytes offset);
  void send(VertexId src, VertexId dst, const std::vector<ByteRange>& ranges);
  void local(TaskKind kind, VertexId device, Bytes bytes, Bytes offset = Bytes{0}, Time overhead = Time{0});
  void next_step();  // closes the current step
  void reserve(std::size_t tasks) { out_.tasks.reserve(tasks); }
  StepSchedule build();

 private:
  void add(TaskKind kind, VertexId src, VertexId dst, Bytes bytes, Bytes offset, Time overhead);
  void extend(std::uint32_t task, Bytes bytes, Bytes offset);
  const Request& req_;
  bool lock_step_;
  StepSchedule out_;
  std::size_t prev_begin_ = 0, cur_begin_ = 0;
  // Flat, reused indexes (no allocation per step: a 1,024-rank ring has 2,046 steps of 1,024
  // tasks). This step's tasks by source: a chain through `same_src_next_`, valid when
  // `src_step_[src]` is the current step number. The previous step's tasks by the device they
  // touch (as source or destination): a chain through `touch_`, valid when `touch_step_[dev]`
  // is the previous step number.
  std::uint32_t step_ = 0;
  std::vector<std::uint32_t> src_step_, src_head_, same_src_next_;
  std::vector<std::uint32_t> touch_step_, touch_head_;           // per device, previous step
  std::vector<std::pair<std::uint32_t, std::uint32_t>> touch_;  // (task, next in the device's chain)
};

// One device-to-device send of a pipelined schedule (tree, NVLS): [offset, offset + bytes).
struct DeviceSend {
  VertexId src = 0, dst = 0;
  Bytes bytes;
  Bytes offset;
};

// A pipelined algorithm whose sends all overlap: one step (the pipeline's critical path is in
// its latency hops) at the step level, one phase named `name` at the coarse level. The step
// schedule is marked `pipelined`: every send is a stream for the whole collective.
StepSchedule pipelined_steps(const Request& req, const std::vector<DeviceSend>& sends);
CoarseSchedule pipelined_phases(const Request& req, const std::string& name, const std::vector<DeviceSend>& sends);

}  // namespace ddpsim::algo
