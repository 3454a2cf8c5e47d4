// Measures NCCL collectives on this machine's GPUs (one process, every visible GPU, one
// communicator per GPU via ncclCommInitAll) and prints them as nccl-tests' all_reduce_perf does,
// so `ddpsim calibrate fit` reads its output like any nccl-tests log. Built only when CMake finds
// CUDA and NCCL (DDPSIM_HAVE_NCCL). Multi-node measurements: run nccl-tests under MPI instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ddpsim::calibrate {

struct NcclSweep {
  std::uint64_t min_bytes = 8;
  std::uint64_t max_bytes = std::uint64_t{1} << 30;
  int factor = 2;
  int warmup = 5;
  int iters = 20;
  int gpus = 0;  // 0: every visible GPU
};

struct NcclPoint {
  std::uint64_t bytes = 0;
  double time_us = 0;  // mean per iteration, out of place
  double algbw_GBps = 0;
  double busbw_GBps = 0;
};

struct NcclRun {
  int gpus = 0;
  std::string device;        // GPU name
  std::string nccl_version;  // e.g. "2.28.9"
  std::vector<NcclPoint> points;
};

// True when this build can run NCCL (CUDA and NCCL were found at build time).
bool nccl_runner_available();
// Runs the all-reduce sweep. Throws UserError when no GPU is usable or CUDA/NCCL fail.
NcclRun run_nccl_allreduce(const NcclSweep& sweep);
// nccl-tests all_reduce_perf text (header and rows; float sum).
std::string format_nccl_tests(const NcclRun& run);

}  // namespace ddpsim::calibrate
