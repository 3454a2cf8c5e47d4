#include "app/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "core/error.hpp"

namespace ddpsim::app {

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
  const int fd = ::mkstemp(name.data());
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
