// What happened when, recorded by the models as they run (observers; no I/O here). Reporters in
// app/ turn it into Chrome trace JSON.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/units.hpp"

namespace ddpsim::sim {

struct Span {
  std::string process;  // e.g. "node 0"
  std::string track;    // e.g. "gpu0 compute", "gpu0 comm"
  std::string name;
  Time start{0}, end{0};
  std::vector<std::pair<std::string, std::string>> args;
};

struct Timeline {
  std::vector<Span> spans;
  void add(Span s) { spans.push_back(std::move(s)); }
};

}  // namespace ddpsim::sim
