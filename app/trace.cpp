#include "app/trace.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace ddpsim::app {

namespace {

// The representative's spans (node 0, "gpu0 ...") copied to node n, GPU g; other spans of node 0
// (link classes) copied to node n. Spans of other processes are kept as they are.
sim::Timeline replicate(const sim::Timeline& in, const TraceLayout& layout)
{
  const int nodes = std::max(1, std::min(layout.nodes, layout.max_nodes));
  sim::Timeline out;
  for (int n = 0; n < nodes; ++n)
    for (const sim::Span& s : in.spans) {
      if (s.process != "node 0") {
        if (n == 0) out.add(s);
        continue;
      }
      const bool per_gpu = s.track.rfind("gpu0 ", 0) == 0;
      for (int g = 0; g < (per_gpu ? std::max(1, layout.gpus_per_node) : 1); ++g) {
        sim::Span c = s;
        c.process = "node " + std::to_string(n);
        if (per_gpu) c.track = "gpu" + std::to_string(g) + s.track.substr(4);
        out.add(std::move(c));
      }
    }
  return out;
}

}  // namespace

std::string chrome_trace_json(const sim::Timeline& in, const std::vector<std::pair<std::string, std::string>>& extra_args,
                              const TraceLayout& layout)
{
  const sim::Timeline timeline = replicate(in, layout);
  using nlohmann::ordered_json;
  ordered_json events = ordered_json::array();
  // Ids in order of first appearance, so the same timeline always gives the same file.
  std::map<std::string, int> pids;
  std::map<std::pair<int, std::string>, int> tids;
  auto meta = [&](const char* what, int pid, int tid, const std::string& name) {
    ordered_json e{{"name", what}, {"ph", "M"}, {"pid", pid}};
    if (tid >= 0) e["tid"] = tid;
    e["args"] = {{"name", name}};
    events.push_back(std::move(e));
  };
  for (const sim::Span& s : timeline.spans) {
    auto [p, new_p] = pids.try_emplace(s.process, static_cast<int>(pids.size()) + 1);
    if (new_p) meta("process_name", p->second, -1, s.process);
    auto [t, new_t] = tids.try_emplace({p->second, s.track}, static_cast<int>(tids.size()) + 1);
    if (new_t) {
      meta("thread_name", p->second, t->second, s.track);
      events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", p->second}, {"tid", t->second},
                        {"args", {{"sort_index", t->second}}}});
    }
    ordered_json args = ordered_json::object();
    for (const auto& [k, v] : s.args) args[k] = v;
    if (s.track.find("comm") != std::string::npos || s.track.rfind("link", 0) == 0)
      for (const auto& [k, v] : extra_args) args[k] = v;
    events.push_back({{"name", s.name},
                      {"ph", "X"},
                      {"pid", p->second},
                      {"tid", t->second},
                      {"ts", static_cast<double>(s.start.ps) / 1e6},
                      {"dur", static_cast<double>((s.end - s.start).ps) / 1e6},
                      {"args", std::move(args)}});
  }
  ordered_json doc{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
  doc["otherData"] = {{"note", "every GPU of a homogeneous job does the same work: one representative was simulated and "
                               "is shown on each GPU"},
                      {"nodes", layout.nodes},
                      {"nodes_shown", std::max(1, std::min(layout.nodes, layout.max_nodes))}};
  return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ddpsim::app
