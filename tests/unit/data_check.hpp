// A data-level oracle for step schedules: runs a StepSchedule over symbolic data and says whether
// every rank ends with the collective's result. Each device (GPU, CPU server, NVSwitch: any
// vertex) holds, per byte range of the per-rank buffer, the set of ranks whose contribution it
// has summed. A send delivers the sender's sets for the task's ranges (algo::data_ranges); the
// receiver overwrites when the incoming set contains its own (a copy of a more complete sum) and
// adds when the two are disjoint (a reduce). Any other overlap would count a contribution twice
// or lose one, so it is an error, as is sending bytes the sender does not hold. Which of copy or
// reduce the algorithm meant is not in the schedule; the only reading that could be right is the
// one taken, so a schedule passes when some implementation of it is correct. A task listing a
// range several times (the parameter server's per-GPU copies) delivers it once.
//
// Ordering: a task may only read data written by tasks it depends on (transitively), and may only
// overwrite data that every earlier reader and writer of it is ordered before (a race check over
// the DAG). Pipelined schedules (StepSchedule::pipelined: tree, NVLS) run every send as a stream
// for the whole collective: per byte range, a stream carries its source's data plus everything
// the other streams into the source bring (a pipelined reduce up and broadcast down a tree);
// streams that form a cycle or bring one contribution twice are errors.
#pragma once

#include <string>

#include "algorithms/algorithm.hpp"

namespace ddpsim::test {

// "" when `s` leaves every rank of `req` with the result of req.op, else the first problem found
// (task index, device, byte range). `a` supplies the shard layout (Algorithm::shard) for
// reduce_scatter and all_gather. At most 64 ranks.
std::string check_data(const algo::Algorithm& a, const algo::Request& req, const algo::StepSchedule& s);

}  // namespace ddpsim::test
