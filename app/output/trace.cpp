#include "app/output/trace.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace ddpsim::app {

namespace {

// The link class of a what-if's steps (add_whatif_steps): job-wide spans, shown once.
const std::string kWhatIfTrack = "what-if ";
bool whatif_track(const sim::Span& s) { return s.stream == sim::Stream::link && s.link_class.rfind(kWhatIfTrack, 0) == 0; }

// The representative's spans (node 0, GPU 0) copied to every GPU of node n; node 0's link spans
// copied to node n. Spans of other nodes are kept as they are.
sim::Timeline replicate(const sim::Timeline& in, const TraceLayout& layout)
{
  const int nodes = std::max(1, std::min(layout.nodes, layout.max_nodes));
  sim::Timeline out;
  for (int n = 0; n < nodes; ++n)
    for (const sim::Span& s : in.spans) {
      if (s.node != 0 || whatif_track(s)) {  // job-wide spans: once
        if (n == 0) out.add(s);
        continue;
      }
      const bool per_gpu = s.gpu == 0;
      for (int g = 0; g < (per_gpu ? std::max(1, layout.gpus_per_node) : 1); ++g) {
        sim::Span c = s;
        c.node = n;
        if (per_gpu) c.gpu = g;
        out.add(std::move(c));
      }
    }
  return out;
}

std::string process_name(const sim::Span& s) { return "node " + std::to_string(s.node); }

std::string track_name(const sim::Span& s)
{
  if (whatif_track(s)) return "steps with " + s.link_class.substr(kWhatIfTrack.size()) + " (last rank)";
  if (s.stream == sim::Stream::link) return "link " + s.link_class;
  return "gpu" + std::to_string(std::max(0, s.gpu)) + " " + std::string(to_string(s.stream));
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
    const std::string process = process_name(s), track = track_name(s);
    auto [p, new_p] = pids.try_emplace(process, static_cast<int>(pids.size()) + 1);
    if (new_p) meta("process_name", p->second, -1, process);
    auto [t, new_t] = tids.try_emplace({p->second, track}, static_cast<int>(tids.size()) + 1);
    if (new_t) {
      meta("thread_name", p->second, t->second, track);
      events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", p->second}, {"tid", t->second},
                        {"args", {{"sort_index", t->second}}}});
    }
    ordered_json args = ordered_json::object();
    for (const auto& [k, v] : s.args) args[k] = v;
    if (s.stream == sim::Stream::comm || s.stream == sim::Stream::link)
      for (const auto& [k, v] : extra_args)
        if (!args.contains(k)) args[k] = v;  // a span's own fields (its bucket's algorithm) win
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

void add_whatif_steps(sim::Timeline& timeline, const sim::WhatIfResult& x)
{
  if (!x.find("step_s") || !x.find("nominal_step_s")) return;
  const std::vector<double>& steps = x.series("step_s");
  const double nominal = x.number("nominal_step_s");
  Time t{0};
  for (const sim::Span& s : timeline.spans) t = std::max(t, s.end);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    sim::Span s;
    s.node = 0;
    s.stream = sim::Stream::link;
    s.link_class = kWhatIfTrack + x.name;
    s.name = "step " + std::to_string(k + 1);
    s.start = t;
    s.end = t = Time::from_seconds(t.seconds() + steps[k]);
    s.args = {{"step_ms", std::to_string(steps[k] * 1e3)}, {"nominal_step_ms", std::to_string(nominal * 1e3)}};
    timeline.add(std::move(s));
  }
}

}  // namespace ddpsim::app
