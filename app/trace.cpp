#include "app/trace.hpp"

#include <map>
#include <nlohmann/json.hpp>

namespace ddpsim::app {

std::string chrome_trace_json(const sim::Timeline& timeline,
                              const std::vector<std::pair<std::string, std::string>>& extra_args)
{
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
  return doc.dump(1) + "\n";
}

}  // namespace ddpsim::app
