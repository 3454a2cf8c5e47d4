#include "sim/engine/engine.hpp"
#include "sim/engine/timeline.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

void Engine::at(Time t, Action action, int late)
{
  DDPSIM_CHECK(t >= now_, "event scheduled in the past (" + std::to_string(t.ps) + " ps < " + std::to_string(now_.ps) + " ps)");
  queue_.push(Event{t, late, next_seq_++, std::move(action)});
}

Time Engine::run()
{
  while (!queue_.empty()) {
    // priority_queue::top is const; move the action out before popping.
    Event ev = std::move(const_cast<Event&>(queue_.top()));
    queue_.pop();
    now_ = ev.t;
    ++processed_;
    ev.action();
  }
  return now_;
}

}  // namespace ddpsim::sim

namespace ddpsim::sim {

std::string_view to_string(Stream s)
{
  switch (s) {
    case Stream::compute: return "compute";
    case Stream::comm: return "comm";
    case Stream::loader: return "loader";
    case Stream::optimizer: return "optimizer";
    case Stream::link: return "link";
  }
  return "?";
}

}  // namespace ddpsim::sim
