#include "app/cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace ddpsim::app {

Progress::Progress(std::string what)
    : what_(std::move(what)), tty_(isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_(start_)
{
}

Progress::~Progress()
{
  if (drawn_) std::fputs("\r\033[K", stderr);  // erase the line: the report (or an error) follows
}

void Progress::update(std::size_t done, std::size_t total)
{
  if (!tty_ || total == 0) return;
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0 || (drawn_ && now - last_ < std::chrono::milliseconds(100) && done < total)) return;
  last_ = now;
  drawn_ = true;
  const double left = done > 0 ? elapsed * static_cast<double>(total - done) / static_cast<double>(done) : 0;
  std::fprintf(stderr, "\rddpsim: %zu/%zu %s (%.0f%%), %.0f s, about %.0f s left\033[K", done, total, what_.c_str(),
               100.0 * static_cast<double>(done) / static_cast<double>(total), elapsed, left);
  std::fflush(stderr);
}

}  // namespace ddpsim::app
