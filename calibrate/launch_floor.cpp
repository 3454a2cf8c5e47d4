#include "calibrate/launch_floor.hpp"

#include <algorithm>

namespace ddpsim::calibrate {

double launch_floor_us(const NcclLog& log, double per_call_us)
{
  return log.gpus_per_thread > 1 ? log.gpus_per_thread * per_call_us : 0.0;
}

double as_benchmarked_us(const NcclLog& log, double collective_us) { return std::max(launch_floor_us(log), collective_us); }

bool at_launch_floor(const NcclLog& log, const LogRow& row) { return row.time_us < launch_floor_us(log, kNcclHostCallHighUs); }

}  // namespace ddpsim::calibrate
