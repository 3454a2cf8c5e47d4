// What happened when, recorded by the models as they run (observers; no I/O here). Reporters in
// app/ turn it into Chrome trace JSON. Spans carry typed fields (node, GPU, stream, link class):
// the reporter lays out processes and tracks from them and never parses a name.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/units.hpp"

namespace ddpsim::sim {

// What a span occupies: one of a GPU's streams, or a class of links of a node.
enum class Stream { compute, comm, loader, optimizer, link };
std::string_view to_string(Stream s);

struct Span {
  int node = 0;
  int gpu = -1;              // the GPU within its node; -1 for node-level tracks (links)
  Stream stream = Stream::compute;
  std::string link_class;    // Stream::link only: "nvlink", "nic", ...
  std::string name;
  Time start{0}, end{0};
  std::vector<std::pair<std::string, std::string>> args;
};

// The one field list of a span, for the child-process codec.
template <class T, class F>
requires std::is_same_v<std::remove_const_t<T>, Span> void fields(T& s, F& f)
{
  f(s.node), f(s.gpu), f(s.stream), f(s.link_class), f(s.name), f(s.start), f(s.end), f(s.args);
}

struct Timeline {
  std::vector<Span> spans;
  void add(Span s) { spans.push_back(std::move(s)); }
};

}  // namespace ddpsim::sim
