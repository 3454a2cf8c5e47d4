// The least time per iteration a benchmark can print when one host thread drives several GPUs
// (nccl-tests -g G): NCCL's host cost of a collective call, measured on an H100, times the GPUs of
// the thread. `calibrate fit`, `collective --compare` and `expect --check` use it so that a log's
// host-bound rows are neither fitted nor taken for the network.
#pragma once

#include "calibrate/nccl_log.hpp"

namespace ddpsim::calibrate {

// NCCL's host cost of one collective call on one GPU: the per-iteration floor this project
// measured on an H100 (validation/device/h100_20261125/h100_allreduce.nccl-tests.txt: NCCL 2.28.9,
// one GPU, ncclGroupStart/ncclAllReduce/ncclGroupEnd in a loop): the median of its 8 B - 1 MiB
// rows, and their range apart from one 12.6 us outlier. It agrees with the 4-6 us per CUDA launch
// behind the training step's `overheads.collective_launch` (docs/model.md).
inline constexpr double kNcclHostCallUs = 6.29;
inline constexpr double kNcclHostCallLowUs = 5.96, kNcclHostCallHighUs = 7.82;

// The least time per iteration a benchmark that drove `gpus_per_thread` GPUs from one host
// thread can print (docs/calibration.md "One thread, several GPUs"): nccl-tests enqueues every
// iteration without waiting (src/common.cu, the timing loop; startColl launches the thread's GPUs
// one after another inside one group), so an iteration takes the longer of the thread's
// G x kNcclHostCallUs of host calls and the collective itself. 0 for one GPU per thread (the
// log does not say, or -g 1): one call's 6 us is below what any collective of several ranks takes,
// so the floor never binds there and such logs are priced and fitted as before.
// `per_call_us` is kNcclHostCallUs, or an end of its range.
double launch_floor_us(const NcclLog& log, double per_call_us = kNcclHostCallUs);
// What the benchmark prints for a collective that alone takes `collective_us`: at least the floor.
double as_benchmarked_us(const NcclLog& log, double collective_us);
// True when the row may time the host calls rather than the collective (below the floor's high
// end): `calibrate fit` leaves such rows out.
bool at_launch_floor(const NcclLog& log, const LogRow& row);

}  // namespace ddpsim::calibrate
