// What a collective algorithm produces: a schedule of data movement over topology devices. It
// says what moves where and in which order, never when: timing is the network backend's job.
//
// The same collective has two granularities that must give the same time on links nobody else
// uses (tests assert it):
//   - StepSchedule: every individual send/reduce/copy as a DAG (teaching, traces, oracle tests);
//   - CoarseSchedule: phases run one after another; in a phase every flow moves all the bytes it
//     moves over that phase at once, and pays `steps` times its route latency plus its
//     `step_overhead` analytically. One flow per edge per phase keeps 1000+ GPU
//     simulations cheap (DESIGN.md, "Speed").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "topology/topology.hpp"

namespace ddpsim::algo {

enum class CollectiveOp { all_reduce, reduce_scatter, all_gather, broadcast, reduce };
std::string_view to_string(CollectiveOp op);

enum class TaskKind {
  send,    // src -> dst over the route between them
  reduce,  // sum `bytes` on device src (== dst) at its memory bandwidth
  copy,    // a local copy on device src (== dst)
};

// A byte range [offset, offset + bytes) of the collective's per-rank buffer (Request::bytes).
struct ByteRange {
  Bytes offset;
  Bytes bytes;
};

struct Task {
  TaskKind kind = TaskKind::send;
  VertexId src = 0, dst = 0;
  Bytes bytes;
  // Which data a send carries: [offset, offset + bytes) of the buffer, unless the schedule lists
  // the task in StepSchedule::pieces. Local tasks (reduce, copy) work on data already delivered;
  // their offset is informative only. Data-level tests (tests/unit/data_check.hpp) run on it.
  Bytes offset;
  std::vector<std::uint32_t> deps;  // indices of tasks that must finish first
  Time overhead{0};                 // fixed software cost of this step (e.g. NCCL per-step latency)
};

struct StepSchedule {
  std::vector<Task> tasks;  // topologically ordered: deps always point backwards
  // Tasks carrying several non-adjacent ranges (sends merged per (src, dst) within a step, e.g.
  // two channels' chunks on one GPU pair; a stripe of shards): task index -> ranges, in order,
  // their lengths summing to the task's bytes. Rare, so kept out of Task (a 1,024-GPU ring has
  // 2.1 M tasks and none here).
  std::map<std::uint32_t, std::vector<ByteRange>> pieces;
  // All tasks run at once as streams (tree, NVLS: one pipelined step with no dependencies): on
  // each byte range, a stream forwards what its source holds plus what reaches the source from
  // every other stream into it (a pipelined reduce up and broadcast down a tree does exactly that).
  bool pipelined = false;
};

// The byte ranges task `i` of `s` carries (see Task::offset).
std::vector<ByteRange> data_ranges(const StepSchedule& s, std::size_t i);

struct Flow {
  TaskKind kind = TaskKind::send;
  VertexId src = 0, dst = 0;
  Bytes bytes;               // all bytes this flow moves in its phase
  Time step_overhead{0};     // fixed software cost per step, on top of the route latency
};

struct Phase {
  std::string name;
  std::vector<Flow> flows;
  int steps = 1;  // pipeline steps: each flow pays steps x (route latency + its step overhead)
  // Run by host server processes, not by the GPU's stream (Herring's and the parameter server's
  // exchanges and CPU sums): a library built so can run it while its GPUs move the next buffer.
  bool on_host = false;
};

struct CoarseSchedule {
  std::vector<Phase> phases;
  Time fixed_latency{0};  // once per collective (e.g. NCCL's base latency)
  // False when `fixed_latency` already holds the whole latency of the collective, wire hops
  // included (NCCL's latency formula, applied by sim::CollectiveModel): backends then charge
  // each phase only its transfers and `steps x step_overhead`, never the route latency again.
  bool route_latency = true;
  // Every flow puts wire_factor x its bytes through its route: a protocol's framing (NCCL's LL
  // sends a 4-byte flag with every 4 bytes of data) and the fraction of line rate the links
  // achieve (a profile's efficiency), applied by sim::CollectiveModel. Local work too: it is
  // priced at the same achieved fraction. 1 for plain schedules.
  double wire_factor = 1.0;
};

// The schedule cut where its phases change side (GPU stream / host servers), in order: one
// schedule for a schedule that never changes side. The first part keeps `fixed_latency` (paid
// once per collective), the others start with none; every part keeps `route_latency` and
// `wire_factor`. The parts' durations add up to the whole's on an idle network.
std::vector<CoarseSchedule> split_by_side(const CoarseSchedule& s);

// Totals used by invariant tests: bytes sent by each device over all steps or phases.
Bytes total_sent(const StepSchedule& s);
Bytes total_sent(const CoarseSchedule& s);

}  // namespace ddpsim::algo
