// Chrome trace event JSON (opens in ui.perfetto.dev and chrome://tracing) from a sim::Timeline:
// each Span process becomes a trace process (a node), each track a thread (a GPU's compute
// stream, its communication stream, a link class), each span a complete ("X") event with its
// args. Timestamps are microseconds. Formatting only: the engine recorded the spans.
#pragma once

#include <string>

#include "sim/engine/timeline.hpp"
#include "sim/study/whatifs/whatif.hpp"

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

// Issue 20: a what-if's simulated steps after the nominal iteration (one whose result has the
// fields step_s, one per step, and nominal_step_s: e.g. stragglers, sim/study/whatifs/stragglers.hpp),
// one span per step on node 0's "steps with NAME (last rank)" track, so that a trace of a
// configuration with stragglers lasts as long as the table says. Nothing for other what-ifs.
void add_whatif_steps(sim::Timeline& timeline, const sim::WhatIfResult& whatif);

}  // namespace ddpsim::app
