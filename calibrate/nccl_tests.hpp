// nccl-tests' conventions shared by `ddpsim collective`, `ddpsim expect` and the tuner export:
// the --op names and the bus-bandwidth factor (NVIDIA/nccl-tests doc/PERFORMANCE.md).
#pragma once

#include <string>

#include "algorithms/algorithm.hpp"
#include "algorithms/bus_bandwidth.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {

inline algo::CollectiveOp parse_op(const std::string& s)
{
  for (auto op : {algo::CollectiveOp::all_reduce, algo::CollectiveOp::reduce_scatter, algo::CollectiveOp::all_gather,
                  algo::CollectiveOp::broadcast, algo::CollectiveOp::reduce})
    if (to_string(op) == s) return op;
  throw UserError("--op: unknown collective \"" + s + "\"");
}

// busbw = algbw x this, for n ranks (algorithms/bus_bandwidth.hpp, shared with the CollectiveModel).
using algo::bus_factor;

}  // namespace ddpsim::calibrate
