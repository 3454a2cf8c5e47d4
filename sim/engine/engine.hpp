// A small deterministic discrete-event engine: integer picosecond time, events at equal times run
// in the order they were scheduled (a sequence number breaks ties), no globals, no I/O. One Engine
// per simulation; observers (timelines, statistics) are plain callbacks owned by the caller.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "core/units.hpp"

namespace ddpsim::sim {

class Engine {
 public:
  using Action = std::function<void()>;

  Time now() const { return now_; }
  // Runs `action` at absolute time `t` (t >= now()). Among events at the same time, lower `late`
  // runs first, then the earlier scheduled: a periodic poller (Horovod's background thread) uses
  // late = 1 to see everything that happened at its instant.
  void at(Time t, Action action, int late = 0);
  // Runs `action` `delay` after now().
  void after(Time delay, Action action) { at(now_ + delay, std::move(action)); }
  // Processes events until none is left. Returns the time of the last one.
  Time run();
  std::uint64_t events_processed() const { return processed_; }

 private:
  struct Event {
    Time t;
    int late;
    std::uint64_t seq;
    Action action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const
    {
      if (a.t != b.t) return a.t > b.t;
      return a.late != b.late ? a.late > b.late : a.seq > b.seq;
    }
  };

  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  Time now_{0};
  std::uint64_t next_seq_ = 0;
  std::uint64_t processed_ = 0;
};

}  // namespace ddpsim::sim
