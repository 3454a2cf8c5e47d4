#include "sim/network/subprocess.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"

namespace ddpsim::sim {
namespace {

// The child's answer: one status byte, then the payload (result or error message).
enum Status : char { ok = 'o', user_error = 'u', internal_error = 'i' };

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

std::string read_all(int fd)
{
  std::string out;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace

ChildProcess::ChildProcess(const std::function<std::string()>& work)
{
  int fds[2];
  DDPSIM_CHECK(::pipe(fds) == 0, std::string("pipe failed: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_ = ::fork();
  DDPSIM_CHECK(pid_ >= 0, std::string("fork failed: ") + std::strerror(errno));
  if (pid_ == 0) {
    ::close(fds[0]);
    std::string answer;
    try {
      answer = static_cast<char>(ok) + work();
    } catch (const UserError& e) {
      answer = static_cast<char>(user_error) + std::string(e.what());
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
  if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
}

std::string ChildProcess::collect()
{
  DDPSIM_CHECK(pid_ > 0, "child collected twice");
  std::string answer = read_all(fd_);
  ::close(fd_);
  fd_ = -1;
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  DDPSIM_CHECK(!answer.empty(), "simulation process died without an answer (status " + std::to_string(status) + ")");
  const char tag = answer[0];
  answer.erase(0, 1);
  if (tag == user_error) throw UserError(answer);
  DDPSIM_CHECK(tag == ok, "in simulation process: " + answer);
  return answer;
}

std::string run_in_child(const std::function<std::string()>& work) { return ChildProcess(work).collect(); }

}  // namespace ddpsim::sim
