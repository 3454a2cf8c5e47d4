#include <cstdio>

#include "calibrate/nccl_runner.hpp"

namespace ddpsim::calibrate {

std::string format_nccl_tests(const NcclRun& run)
{
  std::string out = "# ddpsim-nccl-runner: nGpus " + std::to_string(run.gpus) + ", device " + run.device +
                    ", NCCL version " + run.nccl_version + "\n";
  out += "#                                                              out-of-place                       in-place\n";
  out += "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
  out += "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n";
  char line[256];
  for (const NcclPoint& p : run.points) {
    std::snprintf(line, sizeof line, "%12llu  %12llu     float     sum      -1  %7.2f  %6.2f  %6.2f      0  %7.2f  %6.2f  %6.2f      0\n",
                  static_cast<unsigned long long>(p.bytes), static_cast<unsigned long long>(p.bytes / 4), p.time_us,
                  p.algbw_GBps, p.busbw_GBps, p.time_us, p.algbw_GBps, p.busbw_GBps);
    out += line;
  }
  return out;
}

}  // namespace ddpsim::calibrate
