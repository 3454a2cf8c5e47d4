// A progress line on stderr for long runs (issue 11): "ddpsim: 120/1600 variants (7%), 12 s,
// about 150 s left", redrawn in place at most ten times a second, only when stderr is a terminal
// (isatty) and only once the run has taken more than a second; erased when the run ends. It never
// touches stdout or output files, so reports stay byte-identical.
#pragma once

#include <chrono>
#include <string>

namespace ddpsim::app {

class Progress {
 public:
  // `what` names the units counted ("configurations", "variants").
  explicit Progress(std::string what);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();  // erases the line if one was drawn

  // `done` of `total` units finished.
  void update(std::size_t done, std::size_t total);

 private:
  using Clock = std::chrono::steady_clock;
  std::string what_;
  bool tty_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool drawn_ = false;
};

}  // namespace ddpsim::app
