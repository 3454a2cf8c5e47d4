#include "app/output/multijob_report.hpp"

#include <functional>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "app/output/html_report.hpp"
#include "app/output/result_fields.hpp"
#include "app/output/text_format.hpp"
#include "app/output/text_table.hpp"

namespace ddpsim::app {

// "0-3,8-11": a job's nodes as ranges.
std::string node_list(const std::vector<int>& nodes)
{
  std::string out;
  for (std::size_t i = 0; i < nodes.size();) {
    std::size_t j = i;
    while (j + 1 < nodes.size() && nodes[j + 1] == nodes[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(nodes[i]) + (j > i ? "-" + std::to_string(nodes[j]) : "");
    i = j + 1;
  }
  return out;
}

namespace {

// A job's step, as the scenario JSON has these fields (result_fields.hpp).
Json step_json(const sim::ConfigResult& r)
{
  Json o;
  put_result_fields(o, r, {"step_time_s", "samples_per_s", "total_time_s", "compute_s", "comm_s", "exposed_comm_s", "bound", "cost_usd"});
  return o;
}

}  // namespace

std::string multijob_table(const sim::MultiJobReport& rep)
{
  std::string out = "Shared fabric: " + rep.scenario + " (engine: " + rep.engine + ")\n";
  if (!rep.description.empty()) out += rep.description + "\n";
  out += rep.instance + " x " + std::to_string(rep.nodes) + " nodes (" + std::to_string(rep.gpus) + " GPUs), fabric " +
         rep.fabric + ", placement " + rep.placement + "\n\n";
  // Issue 20: one unit per time column (in its head), framework and model only where they differ
  // between jobs (else named above the table), so the table fits 120 characters.
  std::set<std::string> frameworks, models;
  for (const sim::JobResult& j : rep.jobs) frameworks.insert(j.alone.framework), models.insert(j.model);
  std::string same;
  if (frameworks.size() == 1) same += "framework " + *frameworks.begin();
  if (models.size() == 1) same += (same.empty() ? "" : ", ") + std::string("model ") + *models.begin();
  if (!same.empty()) out += "every job: " + same + "\n\n";
  std::vector<TableColumn> cols;
  auto text = [&](const std::string& head, bool left, const std::function<std::string(const sim::JobResult&)>& f) {
    TableColumn c{head, left, {}};
    for (const sim::JobResult& j : rep.jobs) c.cells.push_back(f(j));
    cols.push_back(c);
  };
  auto time = [&](const std::string& head, const std::function<double(const sim::JobResult&)>& f) {
    std::vector<std::optional<double>> v;
    for (const sim::JobResult& j : rep.jobs) v.push_back(f(j));
    cols.push_back(time_column(head, v));
  };
  text("job", true, [](const sim::JobResult& j) { return j.name; });
  text("nodes", true, [](const sim::JobResult& j) { return node_list(j.nodes); });
  text("GPUs", false, [](const sim::JobResult& j) { return std::to_string(j.alone.gpus); });
  if (frameworks.size() > 1) text("framework", true, [](const sim::JobResult& j) { return j.alone.framework; });
  if (models.size() > 1) text("model", true, [](const sim::JobResult& j) { return j.model; });
  time("step", [](const sim::JobResult& j) { return j.alone.step_time_s; });
  time("shared", [](const sim::JobResult& j) { return j.together.step_time_s; });
  text("slowdown", false, [](const sim::JobResult& j) { return fmt("%.3fx", j.slowdown); });
  time("comm", [](const sim::JobResult& j) { return j.alone.comm_s; });
  time("shared", [](const sim::JobResult& j) { return j.together.comm_s; });
  time("exposed", [](const sim::JobResult& j) { return j.together.exposed_comm_s; });
  out += render_columns(cols);
  out += "\nstep, comm: the job alone on the shared fabric; shared: the same with every job's collectives at once\n"
         "(flow engine, links shared max-min fairly), steps starting together; slowdown = shared step / step;\n"
         "comm: all-reduce time per step; exposed: the part of the shared comm not hidden behind backward.\n";
  return out;
}

std::string multijob_json(const sim::MultiJobReport& rep)
{
  nlohmann::ordered_json j;
  j["scenario"] = rep.scenario;
  j["description"] = rep.description;
  j["engine"] = rep.engine;
  j["instance"] = rep.instance;
  j["nodes"] = rep.nodes;
  j["gpus"] = rep.gpus;
  j["fabric"] = rep.fabric;
  j["placement"] = rep.placement;
  j["jobs"] = nlohmann::ordered_json::array();
  for (const sim::JobResult& r : rep.jobs) {
    nlohmann::ordered_json o;
    o["name"] = r.name;
    o["nodes"] = r.nodes;
    o["gpus"] = r.alone.gpus;
    o["framework"] = r.alone.framework;
    o["model"] = r.model;
    o["algorithm"] = r.alone.algorithm;
    o["alone"] = step_json(r.alone);
    o["together"] = step_json(r.together);
    o["slowdown"] = r.slowdown;
    j["jobs"].push_back(std::move(o));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string multijob_csv(const sim::MultiJobReport& rep)
{
  std::string out =
      "job,nodes,gpus,framework,model,step_alone_s,step_together_s,slowdown,comm_alone_s,comm_together_s,"
      "exposed_comm_alone_s,exposed_comm_together_s\n";
  auto g = [](double v) { return fmt("%.9g", v); };
  for (const sim::JobResult& r : rep.jobs)
    out += r.name + ",\"" + node_list(r.nodes) + "\"," + std::to_string(r.alone.gpus) + "," + r.alone.framework + "," +
           r.model + "," + g(r.alone.step_time_s) + "," + g(r.together.step_time_s) + "," + g(r.slowdown) + "," +
           g(r.alone.comm_s) + "," + g(r.together.comm_s) + "," + g(r.alone.exposed_comm_s) + "," +
           g(r.together.exposed_comm_s) + "\n";
  return out;
}

}  // namespace ddpsim::app
