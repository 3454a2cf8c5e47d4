#include "sim/engine/engine.hpp"

#include "core/error.hpp"

namespace ddpsim::sim {

void Engine::at(Time t, Action action)
{
  DDPSIM_CHECK(t >= now_, "event scheduled in the past (" + std::to_string(t.ps) + " ps < " + std::to_string(now_.ps) + " ps)");
  queue_.push(Event{t, next_seq_++, std::move(action)});
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
