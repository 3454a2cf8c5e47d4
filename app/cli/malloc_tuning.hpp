// Issue 21 (speed at scale): glibc serves blocks above its mmap threshold (at most 32 MiB by
// default) with fresh mappings and unmaps them on free, so the kernel zeroes every page again on
// the next run. A 131,072-GPU scenario allocates such blocks in each of its 21 runs (the reported
// run, the screen, the interval samples: the topology's links alone are 38 MiB), and page faults
// and unmapping were 40% of its time (perf; docs/performance.md). Serving them from the heap and
// keeping freed memory for the next run removes that cost; the peak resident memory is the same.
#pragma once

#include <malloc.h>

namespace ddpsim::app {

inline void keep_freed_memory()
{
  constexpr int kBlock = 256 << 20;  // 256 MiB: above any one allocation of those runs
  mallopt(M_MMAP_THRESHOLD, kBlock);
  mallopt(M_TRIM_THRESHOLD, kBlock);
  mallopt(M_TOP_PAD, 64 << 20);
}

}  // namespace ddpsim::app
