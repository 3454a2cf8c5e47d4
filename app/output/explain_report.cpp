#include "app/output/explain_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace ddpsim::app {

std::string explain_report(const std::vector<calibrate::CandidateRow>& rows, const std::string& format,
                           const std::string& title)
{
  if (format == "json") {
    nlohmann::ordered_json j;
    j["title"] = title;
    j["candidates"] = nlohmann::ordered_json::array();
    for (const calibrate::CandidateRow& r : rows) {
      nlohmann::ordered_json c = {{"bytes", r.bytes},         {"algorithm", r.algorithm},
                                  {"protocol", r.protocol},   {"nccl_estimate_us", r.nccl_estimate_us},
                                  {"time_us", r.time_us},     {"chosen", r.chosen}};
      if (r.chosen) c["chosen_by"] = r.chooser;
      j["candidates"].push_back(std::move(c));
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  if (format == "csv") {
    std::string out = "bytes,algorithm,protocol,nccl_estimate_us,time_us,chosen,chosen_by\n";
    for (const calibrate::CandidateRow& r : rows)
      out += std::to_string(r.bytes) + "," + r.algorithm + "," + r.protocol + "," + fmt("%.3f", r.nccl_estimate_us) + "," +
             fmt("%.3f", r.time_us) + "," + (r.chosen ? "1" : "0") + "," + (r.chosen ? "\"" + r.chooser + "\"" : "") + "\n";
    return out;
  }
  std::string out = "# " + title + "\n";
  out += "# NCCL estimate = what NCCL chooses by (tuning.cc's model, as ddpsim reproduces it; - for algorithms NCCL does\n"
         "# not run); time = ddpsim's price of that choice alone on an idle network; * = the one ddpsim runs.\n";
  out += "#       size  algorithm         protocol  NCCL estimate (us)    time (us)   chosen by\n";
  for (const calibrate::CandidateRow& r : rows) {
    char line[200];
    const std::string estimate = r.nccl_estimate_us > 0 ? fmt("%.1f", r.nccl_estimate_us) : "-";
    std::snprintf(line, sizeof line, "%12llu  %-16s  %-8s  %18s  %11.1f %s", static_cast<unsigned long long>(r.bytes),
                  r.algorithm.c_str(), r.protocol.c_str(), estimate.c_str(), r.time_us, r.chosen ? "* " : "  ");
    out += line + (r.chosen ? r.chooser : std::string()) + "\n";
  }
  return out;
}

}  // namespace ddpsim::app
