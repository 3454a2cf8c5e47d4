// nccl-tests' bus-bandwidth factor (NVIDIA/nccl-tests doc/PERFORMANCE.md): busbw = algbw x this for
// n ranks. NCCL's own model converts its bus bandwidth with the same ratio (tuning.cc, rings).
#pragma once

#include "algorithms/schedule.hpp"

namespace ddpsim::algo {

inline double bus_factor(CollectiveOp op, int n)
{
  switch (op) {
    case CollectiveOp::all_reduce: return 2.0 * (n - 1) / n;
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather: return static_cast<double>(n - 1) / n;
    default: return 1.0;
  }
}

}  // namespace ddpsim::algo
