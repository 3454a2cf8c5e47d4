// Backward slowed by the collectives it overlaps (issue 9; round 4 session 6; issue 21), as pure
// functions over the collectives the network backend has timed. sim/step/iteration.cpp runs them
// once the engine has run backward and the backend the buckets; the sources of the slowdown are in
// sim/step/overheads.hpp (overlap_slowdown) and docs/model.md, "Per-step overheads".
//
// While a collective runs, compute progresses at 1/slowdown of its speed (a fraction `lost` of it
// is lost), and the work it did not do is done afterwards. Two consequences, in this order:
// 1. A gradient is produced later by the work lost before it, so its bucket cannot be released
//    until then (shift_releases). Without this the tail bucket, ready when the unslowed backward
//    ends, ran inside the stretch at the end of backward and its collective was never exposed
//    (issue 18, "communication that real steps pay is hidden").
// 2. Each class's backward grows by the overlapped time x lost (interference_time), measured on
//    the slowed backward, so a slower network cannot hide its collectives behind a backward it
//    never slowed (issue 21).
#pragma once

#include <span>
#include <vector>

#include "sim/step/buckets.hpp"
#include "sim/step/overheads.hpp"

namespace ddpsim::sim {

// One part of a bucket's collective as run: one part unless host servers run a side of it
// (Herring, the parameter server), each part on its own stream after the one before it.
struct CollectivePart {
  int stream = 0;
  Time start{0}, end{0};
};

// The share of compute's speed lost while each bucket's collective runs: 1 - 1/overlap_slowdown
// (its SMs and HBM traffic), 1 with cooperative kernels (backward waits for the collective), 0 for
// a collective that takes no time.
std::vector<double> speed_lost(std::span<const BucketTiming> buckets, const IterationOverheads& o);

// Moves each bucket's collective by how much later its gradients exist on the slowed backward of
// the class whose backward starts at `backward_start` and ends last, in stream order (the
// collectives run one after another on their streams, so a bucket's production time depends only
// on the windows of the buckets before it, already moved). That class's compute progresses at
// 1 - lost[b] inside bucket b's window and at full speed outside, and a gradient that took W of
// unslowed compute after backward start is produced when that progress reaches W. The release
// moves by the same delay: DDP releases a bucket when its last gradient exists; Horovod's
// background thread at its next cycle after that, and only the delay is carried over (the wait for
// the cycle and the negotiation are kept as they were; first order, as the price: a collective
// keeps its duration). Releases keep their order, a collective never starts earlier than the
// backend started it, and each part starts `launch` after the release at the earliest. A bucket's
// `ready` becomes its release on the slowed backward. `produced`: per bucket, when its last
// gradient was produced on the unslowed backward. Returns when the last collective ends.
Time shift_releases(std::vector<BucketTiming>& buckets, std::vector<std::vector<CollectivePart>>& parts,
                    const std::vector<Time>& produced, const std::vector<double>& lost, Time backward_start, Time launch);

// How much longer a class's backward, [backward_start, backward_end] unslowed, runs beside the
// collectives: I = sum over buckets of lost x overlap(bucket, [backward_start, backward_end + I]),
// the fixed point reached from I = 0 (monotone, bounded by the buckets' time), to a nanosecond.
Time interference_time(std::span<const BucketTiming> buckets, const std::vector<double>& lost, Time backward_start,
                       Time backward_end);

}  // namespace ddpsim::sim
