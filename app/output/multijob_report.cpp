#include "app/output/multijob_report.hpp"

#include <nlohmann/json.hpp>

#include "app/input/catalog_loader.hpp"
#include "app/cli/engine_choice.hpp"
#include "app/input/multijob_loader.hpp"
#include "app/output/output.hpp"
#include "app/output/html_report.hpp"
#include "app/output/result_fields.hpp"
#include "app/output/text_format.hpp"
#include "app/input/yaml_reader.hpp"
#include "sim/network/guards.hpp"

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
  const std::vector<std::pair<std::string, std::size_t>> cols{
      {"job", 12}, {"nodes", 14}, {"GPUs", 6}, {"framework", 14}, {"model", 14}, {"step alone", 12},
      {"step shared", 12}, {"slowdown", 9}, {"comm alone", 12}, {"comm shared", 12}, {"exposed shared", 15}};
  auto end_line = [&out] {
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  };
  for (std::size_t c = 0; c < cols.size(); ++c) out += pad(cols[c].first, cols[c].second, c >= 5) + " ";
  end_line();
  for (const sim::JobResult& j : rep.jobs) {
    const std::vector<std::string> cells{j.name,
                                         node_list(j.nodes),
                                         std::to_string(j.alone.gpus),
                                         j.alone.framework,
                                         j.model,
                                         fmt("%.2f ms", j.alone.step_time_s * 1e3),
                                         fmt("%.2f ms", j.together.step_time_s * 1e3),
                                         fmt("%.3fx", j.slowdown),
                                         fmt("%.2f ms", j.alone.comm_s * 1e3),
                                         fmt("%.2f ms", j.together.comm_s * 1e3),
                                         fmt("%.2f ms", j.together.exposed_comm_s * 1e3)};
    for (std::size_t c = 0; c < cols.size(); ++c) out += pad(cells[c], cols[c].second, c >= 5) + " ";
    end_line();
  }
  out += "\nalone: the job by itself on the shared fabric; shared: every job's collectives at once (flow engine,\n"
         "links shared max-min fairly), steps starting together. comm: all-reduce time per step.\n";
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

int run_multijob_scenario(const std::string& file, const std::string& format, const std::string& engine,
                          const std::string& output, const std::string& max_memory)
{
  const sim::MultiJobSpec spec = load_multijob(file, builtin_catalog());
  sim::MultiJobReport rep;
  try {
    const sim::EngineKind kind = resolve_engine(engine, spec.engine);  // --engine, else the file's engine:
    // The whole cluster on the flow engine (each job alone, then all together) is the largest run.
    const int gpn = spec.gpus_per_node > 0 ? spec.gpus_per_node : spec.instance.gpus;
    if (kind == sim::EngineKind::flow)
      sim::check_resources(spec.nodes, gpn, kind, sim::Workload::ring, sim::ResourceLimits{sim::parse_max_memory(max_memory)},
                           "cluster.nodes");
    rep = sim::run_multijob(spec, kind);
  } catch (const UserError& e) {
    if (!e.where().file.empty() || e.field().empty() || e.field().rfind("--", 0) == 0) throw;  // as guarded_run
    throw UserError(locate_field(file, e.field()), e.field(), e.message());
  }
  write_output(output, format == "json"   ? multijob_json(rep)
                       : format == "csv"  ? multijob_csv(rep)
                       : format == "html" ? multijob_html(rep)
                                          : multijob_table(rep));
  return 0;
}

}  // namespace ddpsim::app
