// Running one computation in a child process. SimGrid keeps global state (one Engine per process,
// callbacks that accumulate), so every SimGrid simulation runs in a fork()ed child that sends
// its result back through a pipe; the parent can then run any number of them, tests included.
#pragma once

#include <functional>
#include <string>

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

// A running child, for fan-out: start several, then collect them in order.
class ChildProcess {
 public:
  explicit ChildProcess(const std::function<std::string()>& work);
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ChildProcess(const ChildProcess&) = delete;
  ~ChildProcess();
  // Waits for the child; returns its result or rethrows its error.
  std::string collect();

 private:
  int pid_ = -1;
  int fd_ = -1;
};

}  // namespace ddpsim
