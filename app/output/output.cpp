#include "app/output/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iterator>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "core/error.hpp"

namespace ddpsim::app {
namespace {

// The temp file being written, for the signal handler: SIGINT/SIGTERM/SIGHUP during the write
// remove it, then the signal takes its default course (the process ends as it would have).
char g_temp_path[4096];
volatile sig_atomic_t g_temp_active = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_temp_and_reraise(int sig)
{
  if (g_temp_active) ::unlink(g_temp_path);  // async-signal-safe
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Installs the handler for the lifetime of one write; restores the previous dispositions.
class TempGuard {
 public:
  explicit TempGuard(const std::string& path)
  {
    const std::size_t n = std::min(path.size(), sizeof g_temp_path - 1);
    std::memcpy(g_temp_path, path.data(), n);
    g_temp_path[n] = '\0';
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_reraise;
    sigemptyset(&sa.sa_mask);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &sa, &old_[i]);
    g_temp_active = 1;
  }
  ~TempGuard()
  {
    g_temp_active = 0;
    for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
  }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;

 private:
  struct sigaction old_[std::size(kSignals)] {};
};

}  // namespace

void write_output(const std::string& path, const std::string& content)
{
  if (path.empty() || path == "-") {
    std::cout << content << std::flush;
    return;
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  // Armed before the file exists, so a signal at any point cannot leave it behind.
  TempGuard guard(std::string(name.data()));
  // Signals wait while mkstemp picks the name and the handler learns it.
  sigset_t block, old;
  sigemptyset(&block);
  for (int sig : kSignals) sigaddset(&block, sig);
  ::sigprocmask(SIG_BLOCK, &block, &old);
  const int fd = ::mkstemp(name.data());
  if (fd >= 0) {
    std::memcpy(g_temp_path, name.data(), std::min(name.size(), sizeof g_temp_path));
    g_temp_path[sizeof g_temp_path - 1] = '\0';
  }
  ::sigprocmask(SIG_SETMASK, &old, nullptr);
  if (fd < 0) throw UserError(SourceLocation{path, 0, 0}, "", std::string("cannot write: ") + std::strerror(errno));
  ::fchmod(fd, 0644);  // mkstemp creates 0600; results are ordinary files
  std::size_t written = 0;
  bool ok = true;
  while (written < content.size()) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  const int saved = errno;
  ok = ::fsync(fd) == 0 && ok;
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(name.data(), path.c_str()) != 0) {
    const int err = ok ? errno : saved;
    std::remove(name.data());
    throw UserError(SourceLocation{path, 0, 0}, "", std::string("cannot write: ") + std::strerror(err));
  }
}

}  // namespace ddpsim::app
