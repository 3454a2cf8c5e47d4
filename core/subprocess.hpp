// Running one computation in a child process. SimGrid keeps global state (one Engine per process,
// callbacks that accumulate), so every SimGrid simulation runs in a fork()ed child that sends
// its result back through a pipe; the parent can then run any number of them, tests included.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <list>
#include <string>
#include <utility>
#include <vector>

namespace ddpsim {

// Use from one thread only: fork() copies just the calling thread, so a child forked while another
// thread holds a lock (malloc's, iostream's) could deadlock. ddpsim itself is single-threaded;
// a library user must not call the simulators concurrently (docs/reliability.md). This is enforced:
// starting a child from a process with more than one thread throws an InternalError.
//
// Children are killed when the parent dies (PR_SET_PDEATHSIG), their pipes are close-on-exec,
// and a child that ends by a signal or runs past the timeout is an error, never a silent result.

// Limit on every child's run, in seconds of wall time; 0 (the default) means none. Past it the
// child is killed and collect() throws a UserError naming --timeout.
void set_simulation_timeout(double seconds);
double simulation_timeout();

// Runs `work` in a child process and returns the bytes it produced. A UserError or
// InternalError (with its location and field), OverflowError, ValueError or
// InternalError thrown in the child is rethrown in the parent with the same message; a child
// that dies without answering is an InternalError. The parent's stdout is flushed first so
// buffered output is never written twice.
std::string run_in_child(const std::function<std::string()>& work);

// A running child, for fan-out: start several, then collect each as it finishes (first_ready).
class ChildProcess {
 public:
  explicit ChildProcess(const std::function<std::string()>& work);
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ChildProcess(const ChildProcess&) = delete;
  ~ChildProcess();
  // Waits for the child; returns its result or rethrows its error.
  std::string collect();
  // Which of `children` (none collected yet) has begun to answer, waiting until one has: collect
  // that one next, so a finished child does not wait behind a slower one started before it (the
  // callers keep their results in order themselves). The lowest index when several are ready;
  // under a simulation timeout, 0 once it passes with none ready (collect() then enforces it).
  static std::size_t first_ready(const std::vector<const ChildProcess*>& children);

 private:
  int pid_ = -1;
  int fd_ = -1;
};

// Fan-out's collection: the children running, each with the caller's key (where its answer goes).
// Collects whichever has begun to answer first (ChildProcess::first_ready), removes it, and
// returns its key and answer; the caller puts the answer in its place, so order is kept.
template <class Key>
std::pair<Key, std::string> collect_first(std::list<std::pair<Key, ChildProcess>>& running)
{
  std::vector<const ChildProcess*> children;
  for (const auto& r : running) children.push_back(&r.second);
  const auto it = std::next(running.begin(), static_cast<std::ptrdiff_t>(ChildProcess::first_ready(children)));
  std::pair<Key, std::string> out{it->first, it->second.collect()};
  running.erase(it);
  return out;
}

}  // namespace ddpsim
