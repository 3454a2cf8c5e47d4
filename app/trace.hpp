// Chrome trace event JSON (opens in ui.perfetto.dev and chrome://tracing) from a sim::Timeline:
// each Span process becomes a trace process (a node), each track a thread (a GPU's compute
// stream, its communication stream, a link class), each span a complete ("X") event with its
// args. Timestamps are microseconds. Formatting only: the engine recorded the spans.
#pragma once

#include <string>

#include "sim/timeline.hpp"

namespace ddpsim::app {

// `extra_args` are added to every span on a communication or link track (e.g. the algorithm).
std::string chrome_trace_json(const sim::Timeline& timeline,
                              const std::vector<std::pair<std::string, std::string>>& extra_args = {});

}  // namespace ddpsim::app
