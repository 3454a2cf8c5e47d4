// Chrome trace event JSON (opens in ui.perfetto.dev and chrome://tracing) from a sim::Timeline:
// each Span process becomes a trace process (a node), each track a thread (a GPU's compute
// stream, its communication stream, a link class), each span a complete ("X") event with its
// args. Timestamps are microseconds. Formatting only: the engine recorded the spans.
#pragma once

#include <string>

#include "sim/engine/timeline.hpp"

namespace ddpsim::app {

// How many nodes and GPUs the spans stand for. The models simulate one representative GPU of a
// homogeneous job (node 0, gpu0: every rank does the same work), so the trace repeats its spans
// for every GPU of each node, giving a process per node and tracks per GPU, up to `max_nodes`
// nodes (a note in the trace says when more were left out).
struct TraceLayout {
  int nodes = 1;
  int gpus_per_node = 1;
  int max_nodes = 16;
};

// `extra_args` are added to every span on a communication or link track (e.g. the algorithm).
std::string chrome_trace_json(const sim::Timeline& timeline,
                              const std::vector<std::pair<std::string, std::string>>& extra_args = {},
                              const TraceLayout& layout = {});

}  // namespace ddpsim::app
