#include "sim/step/interference.hpp"

#include <cmath>
#include <unordered_map>

#include "sim/step/overheads.hpp"

namespace ddpsim::sim {

std::vector<double> speed_lost(std::span<const BucketTiming> buckets, const IterationOverheads& o)
{
  std::vector<double> lost(buckets.size(), 0.0);
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const BucketTiming& b = buckets[i];
    const Time busy = b.end - b.start;
    if (busy <= Time{0}) continue;
    if (o.serialized) {  // cooperative kernels: backward waits for the collective to end
      lost[i] = 1.0;
      continue;
    }
    const double comm_hbm = o.hbm_bytes_per_wire_byte * o.wire_bytes_per_byte * b.bytes.as_double() / busy.seconds();
    const int ctas = o.comm_ctas > 0 ? o.comm_ctas : b.channels;
    const bool sms = o.sm_count > ctas;
    lost[i] = 1.0 - 1.0 / overlap_slowdown(sms ? ctas : 0, sms ? o.sm_count : 1, Bandwidth{comm_hbm}, o.hbm);
  }
  return lost;
}

Time shift_releases(std::vector<BucketTiming>& buckets, std::vector<std::vector<CollectivePart>>& parts,
                    const std::vector<Time>& produced, const std::vector<double>& lost, Time backward_start, Time launch)
{
  std::unordered_map<int, Time> stream_free;
  Time released{0}, comm_end{0};
  std::vector<SlowWindow> windows(buckets.size());  // the buckets before b, already moved
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    BucketTiming& bt = buckets[b];
    Time delay{0};
    if (produced[b] > backward_start)
      delay = max(Time{0}, slowed_finish(backward_start, produced[b] - backward_start, std::span(windows.data(), b)) - produced[b]);
    released = max(released, bt.ready + delay);
    bt.ready = released;  // when the framework releases it on the slowed backward
    Time after = released + launch;  // each part after the one before it
    for (CollectivePart& part : parts[b]) {
      const Time busy = part.end - part.start;
      Time& free = stream_free[part.stream];
      part.start = max(max(part.start, after), free);
      part.end = part.start + busy;
      free = after = part.end;
    }
    bt.start = parts[b].front().start;
    bt.end = parts[b].back().end;
    windows[b] = SlowWindow{bt.start, bt.end, 1.0 - lost[b]};
    comm_end = max(comm_end, bt.end);
  }
  return comm_end;
}

Time interference_time(std::span<const BucketTiming> buckets, const std::vector<double>& lost, Time backward_start,
                       Time backward_end)
{
  Time interference{0};
  for (int round = 0; round < 64; ++round) {
    const Time window_end = backward_end + interference;
    Time sum{0};
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      const BucketTiming& b = buckets[i];
      const Time overlap = (b.end < window_end ? b.end : window_end) - max(b.start, backward_start);
      if (lost[i] > 0 && overlap > Time{0}) sum += Time{std::llround(static_cast<double>(overlap.ps) * lost[i])};
    }
    const bool settled = sum.ps - interference.ps < 1000;  // within a nanosecond
    interference = sum;
    if (settled) break;
  }
  return interference;
}

}  // namespace ddpsim::sim
