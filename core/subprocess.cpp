#include "core/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "core/units.hpp"

namespace ddpsim {
namespace {

// The child's answer: one status byte, then the payload (result or error).
enum Status : char { ok = 'o', user_error = 'u', value_error = 'v', overflow_error = 'f', internal_error = 'i' };

double g_timeout_s = 0;  // 0: no limit (set_simulation_timeout)

// Threads of this process (Linux: entries of /proc/self/task); 0 where that is not available.
std::size_t thread_count()
{
  std::error_code ec;
  std::size_t n = 0;
  for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec)) ++n;
  return ec ? 0 : n;
}

void write_all(int fd, const std::string& data)
{
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nothing sensible left to do
    done += static_cast<std::size_t>(n);
  }
}

// A UserError crosses the pipe whole (file, line, column, field, message) so the parent rethrows
// the same error, not "error: error: ..." wrapped around its rendered text.
std::string encode_user_error(const UserError& e)
{
  const SourceLocation& w = e.where();
  return w.file + '\0' + std::to_string(w.line) + '\0' + std::to_string(w.column) + '\0' + e.field() + '\0' + e.message();
}

[[noreturn]] void throw_user_error(const std::string& payload)
{
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const std::size_t end = payload.find('\0', start);
    DDPSIM_CHECK(end != std::string::npos, "malformed error from a simulation process");
    parts.push_back(payload.substr(start, end - start));
    start = end + 1;
  }
  throw UserError(SourceLocation{parts[0], std::stoi(parts[1]), std::stoi(parts[2])}, parts[3], payload.substr(start));
}

std::string describe(int status)
{
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

}  // namespace

void set_simulation_timeout(double seconds) { g_timeout_s = seconds > 0 ? seconds : 0; }
double simulation_timeout() { return g_timeout_s; }

ChildProcess::ChildProcess(const std::function<std::string()>& work)
{
  // fork() copies only the calling thread: a child forked while another thread holds a lock
  // (malloc's, stdio's) can deadlock. Refuse instead of risking it (docs/reliability.md).
  if (const std::size_t threads = thread_count(); threads > 1)
    throw InternalError("the flow engine forks worker processes and must be called from a single-threaded process; this "
                        "one has " + std::to_string(threads) + " threads (docs/reliability.md, \"Processes\")");
  int fds[2];
  // O_CLOEXEC: a program the caller execs later must not hold our pipe open (its reader would
  // then never see end-of-file).
  DDPSIM_CHECK(::pipe2(fds, O_CLOEXEC) == 0, std::string("pipe failed: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  DDPSIM_CHECK(pid_ >= 0, std::string("fork failed: ") + std::strerror(errno));
  if (pid_ == 0) {
    // Die with the parent (killed, or exited on an error) instead of simulating for nobody.
    // The parent may already be gone between fork() and prctl(): check after arming.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::close(fds[0]);
    std::string answer;
    try {
      answer = static_cast<char>(ok) + work();
    } catch (const UserError& e) {
      answer = static_cast<char>(user_error) + encode_user_error(e);
    } catch (const OverflowError& e) {
      answer = static_cast<char>(overflow_error) + std::string(e.what());
    } catch (const ValueError& e) {
      answer = static_cast<char>(value_error) + std::string(e.what());
    } catch (const std::exception& e) {
      answer = static_cast<char>(internal_error) + std::string(e.what());
    }
    write_all(fds[1], answer);
    ::close(fds[1]);
    ::_exit(0);  // no atexit handlers, no stdio flush: the parent owns those
  }
  ::close(fds[1]);
  fd_ = fds[0];
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept : pid_(other.pid_), fd_(other.fd_)
{
  other.pid_ = -1;
  other.fd_ = -1;
}

ChildProcess::~ChildProcess()
{
  if (fd_ >= 0) ::close(fd_);
  if (pid_ > 0) {
    // Not collected (an error elsewhere unwinds): stop it rather than wait for its whole run.
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

std::size_t ChildProcess::first_ready(const std::vector<const ChildProcess*>& children)
{
  DDPSIM_CHECK(!children.empty(), "first_ready of no children");
  std::vector<pollfd> fds;
  for (const ChildProcess* c : children) {
    DDPSIM_CHECK(c->fd_ >= 0, "first_ready of a collected child");
    fds.push_back(pollfd{c->fd_, POLLIN, 0});
  }
  const int wait_ms = g_timeout_s > 0 ? static_cast<int>(std::min(g_timeout_s * 1000.0, double{1 << 30})) : -1;
  for (;;) {
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    DDPSIM_CHECK(ready >= 0, std::string("poll failed: ") + std::strerror(errno));
    for (std::size_t i = 0; i < fds.size(); ++i)
      if (fds[i].revents != 0) return i;  // readable, or closed: an answer or a death to report
    return 0;  // the timeout passed with none ready: the oldest's collect() enforces it
  }
}

std::string ChildProcess::collect()
{
  DDPSIM_CHECK(pid_ > 0, "child collected twice");
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(g_timeout_s);
  std::string answer;
  bool timed_out = false;
  char buf[1 << 16];
  for (;;) {
    int wait_ms = -1;
    if (g_timeout_s > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    DDPSIM_CHECK(ready >= 0, std::string("poll failed: ") + std::strerror(errno));
    if (ready == 0) continue;  // the deadline is checked at the top
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd_);
  fd_ = -1;
  if (timed_out) ::kill(pid_, SIGKILL);
  int status = 0;
  pid_t waited = 0;
  while ((waited = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  DDPSIM_CHECK(waited == pid_, std::string("waitpid failed: ") + std::strerror(errno));
  pid_ = -1;
  if (timed_out)
    throw UserError("--timeout: a simulation ran longer than " + std::to_string(static_cast<long long>(g_timeout_s)) +
                    " s and was stopped");
  DDPSIM_CHECK(!answer.empty(), "simulation process died without an answer (" + describe(status) + ")");
  DDPSIM_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
               "simulation process answered but then ended abnormally (" + describe(status) + ")");
  const char tag = answer[0];
  answer.erase(0, 1);
  if (tag == user_error) throw_user_error(answer);
  if (tag == overflow_error) throw OverflowError(answer);
  if (tag == value_error) throw ValueError(answer);
  DDPSIM_CHECK(tag == ok, "in simulation process: " + answer);
  return answer;
}

std::string run_in_child(const std::function<std::string()>& work) { return ChildProcess(work).collect(); }

}  // namespace ddpsim
