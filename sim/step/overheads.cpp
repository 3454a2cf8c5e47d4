#include "sim/step/overheads.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace ddpsim::sim {

double overlap_slowdown(int channels, int sm_count, Bandwidth comm_hbm, Bandwidth hbm)
{
  DDPSIM_CHECK(sm_count > 0 && channels >= 0 && channels < sm_count, "channels must leave SMs for compute");
  DDPSIM_CHECK(hbm.bytes_per_s > 0 && comm_hbm.bytes_per_s >= 0, "bandwidths must be positive");
  const double sm = static_cast<double>(sm_count) / (sm_count - channels);
  // The collective never takes all of HBM: it is itself limited by its links.
  const double left = std::max(hbm.bytes_per_s - comm_hbm.bytes_per_s, 0.05 * hbm.bytes_per_s);
  return std::max(sm, hbm.bytes_per_s / left);
}

Time slowed_finish(Time begin, Time work, std::span<const SlowWindow> windows)
{
  DDPSIM_CHECK(work >= Time{0}, "work must not be negative");
  const double need = static_cast<double>(work.ps);
  double done = 0, t = static_cast<double>(begin.ps);
  for (const SlowWindow& w : windows) {
    const double s = static_cast<double>(w.start.ps), e = static_cast<double>(w.end.ps);
    if (e <= t) continue;
    if (s > t) {  // full speed until the window opens
      if (done + (s - t) >= need) return Time{std::llround(t + need - done)};
      done += s - t;
      t = s;
    }
    if (w.rate > 0 && done + w.rate * (e - t) >= need) return Time{std::llround(t + (need - done) / w.rate)};
    done += w.rate * (e - t);
    t = e;
  }
  return Time{std::llround(t + need - done)};
}

Time bucket_copy_time(Bytes gradients, Bandwidth hbm, bool gradient_as_bucket_view)
{
  if (gradient_as_bucket_view) return Time{0};
  return transfer_time(4.0 * gradients.as_double(), hbm);
}

Time launch_cost(int collectives, Time per_launch) { return per_launch * collectives; }

Time host_reduction_time(Bytes bytes, int workers, Bandwidth cpu_memory)
{
  DDPSIM_CHECK(workers >= 1, "a reduction needs a worker");
  return transfer_time(bytes.as_double() * (workers + 1), cpu_memory);
}

double optimizer_bytes_per_param(Optimizer opt, Precision p)
{
  const double fp32 = opt == Optimizer::sgd ? 20.0 : 28.0;
  if (p == Precision::fp16 || p == Precision::bf16) return fp32 - 2.0 + 2.0;  // 16-bit grad read, 16-bit copy written
  return fp32;
}

}  // namespace ddpsim::sim
