#include "app/report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace ddpsim::app {
namespace {

std::string fmt(const char* format, double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string pad(std::string s, std::size_t width, bool right = true)
{
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string human_time(double s)
{
  if (s >= 3600) return fmt("%.2f h", s / 3600);
  if (s >= 60) return fmt("%.1f min", s / 60);
  if (s >= 1) return fmt("%.2f s", s);
  if (s >= 1e-3) return fmt("%.2f ms", s * 1e3);
  return fmt("%.1f us", s * 1e6);
}

// A CSV cell (RFC 4180): printable (one line, valid UTF-8), quoted when it holds a comma or quote.
std::string csv(const std::string& s)
{
  const std::string p = printable(s);
  if (p.find_first_of(",\"") == std::string::npos) return p;
  std::string out = "\"";
  for (char c : p) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string scenario_table(const sim::ScenarioReport& rep)
{
  // Names come from the user's file: printable() keeps each on its line and the output valid UTF-8.
  std::string out = "scenario " + printable(rep.scenario) + (rep.description.empty() ? "" : ": " + printable(rep.description)) + "\n";
  out += "model " + printable(rep.model) + " (" + fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) +
         " M parameters), network " + rep.engine + "\n\n";
  bool observed = false;
  for (const auto& r : rep.results) observed = observed || r.observed_minutes.has_value();

  struct Col {
    const char* head;
    std::size_t width;
  };
  // Left-aligned text columns: instance, framework, bound.
  std::vector<Col> cols{{"instance", 16}, {"framework", 16}, {"nodes", 5},   {"gpus", 5},     {"step", 10},
                        {"samples/s", 11}, {"compute", 10},  {"comm", 10},   {"exposed", 10}, {"loader", 10},
                        {"optim", 10},     {"bound", 13},    {"total", 10},  {"speedup", 8},  {"eff", 6},
                        {"cost", 10}};
  auto left = [](std::size_t i) { return i == 0 || i == 1 || i == 11; };
  if (observed) cols.insert(cols.end(), {{"observed", 10}, {"obs.speedup", 11}, {"error", 8}});
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "  " : "") + pad(cols[i].head, cols[i].width, !left(i));
  out += "\n";
  const auto* base = rep.results.empty() ? nullptr : &rep.results.front();
  for (const auto& r : rep.results) {
    std::vector<std::string> cells{printable(r.instance),
                                   r.framework,
                                   std::to_string(r.nodes),
                                   std::to_string(r.gpus),
                                   human_time(r.step_time_s),
                                   fmt("%.0f", r.samples_per_s),
                                   human_time(r.compute_s),
                                   human_time(r.comm_s),
                                   human_time(r.exposed_comm_s),
                                   human_time(r.loader_wait_s),
                                   human_time(r.optimizer_s + r.overhead_s),
                                   r.bound,
                                   human_time(r.total_time_s),
                                   fmt("%.2fx", r.speedup),
                                   fmt("%.0f%%", r.scaling_efficiency * 100),
                                   fmt("$%.2f", r.cost_usd)};
    if (observed) {
      if (r.observed_minutes) {
        const double obs_s = *r.observed_minutes * 60;
        cells.push_back(human_time(obs_s));
        if (base && base->observed_minutes)
          cells.push_back(fmt("%.2fx", *base->observed_minutes / *r.observed_minutes));
        else
          cells.push_back("-");
        cells.push_back(fmt("%+.0f%%", (r.total_time_s - obs_s) / obs_s * 100));
      } else {
        cells.insert(cells.end(), {"-", "-", "-"});
      }
    }
    for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "  " : "") + pad(cells[i], cols[i].width, !left(i));
    out += "\n";
  }
  out += "\nstep = one optimizer step per GPU = compute + exposed + loader + optim; compute = forward + backward\n"
         "(all micro-steps); comm = gradient reduction time per step, exposed = not hidden behind backward;\n"
         "loader = waiting for input; optim = optimizer + framework overhead; bound = what dominates the step;\n"
         "total = start-up + steps x step; cost = instances x hours x on-demand price; speedup and eff(iciency)\n"
         "against the first row";
  if (observed) out += "; error = predicted total vs observed";
  out += ".\n";
  if (!rep.price_source.empty()) out += "prices: " + rep.price_source + "\n";
  for (const auto& r : rep.results)
    for (const std::string& w : r.warnings)
      out += "warning: " + printable(r.instance) + " x" + std::to_string(r.nodes) + " " + r.framework + ": " + printable(w) + "\n";
  // The flow engine says how it simulated each row (sim::ConfigResult::simulated).
  for (const auto& r : rep.results)
    if (!r.simulated.empty())
      out += std::to_string(r.nodes) + " nodes: the flow engine simulated " +
             (r.simulated == "symmetric" ? "one symmetry period standing for all ranks" : "every rank (one period only, or ranks that differ)") +
             ".\n";
  return out;
}

std::string scenario_json(const sim::ScenarioReport& rep)
{
  nlohmann::ordered_json j;
  j["scenario"] = rep.scenario;
  j["description"] = rep.description;
  j["engine"] = rep.engine;
  j["model"] = rep.model;
  j["parameters"] = rep.parameters;
  j["price_source"] = rep.price_source;
  j["results"] = nlohmann::ordered_json::array();
  for (const auto& r : rep.results) {
    nlohmann::ordered_json o;
    o["instance"] = r.instance;
    o["nodes"] = r.nodes;
    o["gpus"] = r.gpus;
    o["framework"] = r.framework;
    o["backend"] = r.backend;
    o["algorithm"] = r.algorithm;
    o["step_time_s"] = r.step_time_s;
    o["samples_per_s"] = r.samples_per_s;
    o["steps"] = r.steps;
    o["total_time_s"] = r.total_time_s;
    o["speedup"] = r.speedup;
    o["scaling_efficiency"] = r.scaling_efficiency;
    o["compute_s"] = r.compute_s;
    o["comm_s"] = r.comm_s;
    o["exposed_comm_s"] = r.exposed_comm_s;
    o["optimizer_s"] = r.optimizer_s;
    o["loader_wait_s"] = r.loader_wait_s;
    o["overhead_s"] = r.overhead_s;
    o["grad_accum_steps"] = r.grad_accum_steps;
    o["startup_s"] = r.startup_s;
    o["price_usd_per_hour"] = r.price_usd_per_hour;
    o["bound"] = r.bound;
    o["bucket_bytes"] = r.bucket_bytes;
    // Each gradient reduction as the CollectiveModel priced it, in launch order.
    o["buckets"] = nlohmann::ordered_json::array();
    for (const sim::BucketResult& b : r.buckets)
      o["buckets"].push_back({{"bytes", b.bytes},
                              {"algorithm", b.algorithm},
                              {"protocol", b.protocol},
                              {"channels", b.channels},
                              {"time_s", b.time_s()},
                              {"ready_s", b.ready_s},
                              {"start_s", b.start_s}});
    o["cost_usd"] = r.cost_usd;
    o["warnings"] = r.warnings;
    if (r.observed_minutes) {
      o["observed_total_time_s"] = *r.observed_minutes * 60;
      o["error"] = (r.total_time_s - *r.observed_minutes * 60) / (*r.observed_minutes * 60);
    }
    if (!r.simulated.empty()) o["simulated"] = r.simulated;
    j["results"].push_back(std::move(o));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string scenario_csv(const sim::ScenarioReport& rep)
{
  std::string out =
      "instance,nodes,gpus,framework,backend,algorithm,step_time_s,samples_per_s,steps,total_time_s,speedup,"
      "scaling_efficiency,compute_s,comm_s,exposed_comm_s,optimizer_s,loader_wait_s,bound,buckets,cost_usd,"
      "observed_total_time_s\n";
  for (const auto& r : rep.results) {
    auto g = [](double v) { return fmt("%.9g", v); };
    out += csv(r.instance) + "," + std::to_string(r.nodes) + "," + std::to_string(r.gpus) + "," + csv(r.framework) + "," +
           csv(r.backend) + "," + csv(r.algorithm) + "," + g(r.step_time_s) + "," + g(r.samples_per_s) + "," +
           std::to_string(r.steps) + "," + g(r.total_time_s) + "," + g(r.speedup) + "," + g(r.scaling_efficiency) +
           "," + g(r.compute_s) + "," + g(r.comm_s) + "," + g(r.exposed_comm_s) + "," + g(r.optimizer_s) + "," +
           g(r.loader_wait_s) + "," + csv(r.bound) + "," + std::to_string(r.bucket_bytes.size()) + "," + g(r.cost_usd) +
           "," + (r.observed_minutes ? g(*r.observed_minutes * 60) : "") + "\n";
  }
  return out;
}

}  // namespace ddpsim::app
