#include "app/report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

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

struct TimeUnit {
  double per_second;
  const char* format;
  const char* name;
};

TimeUnit unit_for(double s)
{
  if (s >= 3600) return {1.0 / 3600, "%.2f", "h"};
  if (s >= 60) return {1.0 / 60, "%.1f", "min"};
  if (s >= 1) return {1, "%.2f", "s"};
  if (s >= 1e-3) return {1e3, "%.2f", "ms"};
  return {1e6, "%.1f", "us"};
}

std::string human_time(double s)
{
  const TimeUnit u = unit_for(s);
  return fmt(u.format, s * u.per_second) + " " + u.name;
}

// A value with its [p10, p90] band in the same unit: "14.60 ms (13.90-15.40)".
std::string with_band(const std::string& value, const char* format, double scale, const sim::ConfigResult::Band& b)
{
  if (!b.set) return value;
  return value + " (" + fmt(format, b.p10 * scale) + "-" + fmt(format, b.p90 * scale) + ")";
}

std::string time_band(double s, const sim::ConfigResult::Band& b)
{
  const TimeUnit u = unit_for(s);
  return with_band(human_time(s), u.format, u.per_second, b);
}

void put_band(nlohmann::ordered_json& o, const std::string& key, const sim::ConfigResult::Band& b)
{
  if (!b.set) return;
  o[key + "_p10"] = b.p10;
  o[key + "_p90"] = b.p90;
}

}  // namespace

std::string scenario_table(const sim::ScenarioReport& rep)
{
  std::string out = "scenario " + rep.scenario + (rep.description.empty() ? "" : ": " + rep.description) + "\n";
  out += "model " + rep.model + " (" + fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) +
         " M parameters), network " + rep.engine + "\n\n";
  bool observed = false, uncalibrated = false, bands = false;
  for (const auto& r : rep.results) {
    observed = observed || r.observed_minutes.has_value();
    uncalibrated = uncalibrated || r.uncalibrated_total_s.has_value();
    bands = bands || r.total_band.set;
  }
  const std::size_t wide = bands ? 12 : 0;  // room for " (low-high)"

  struct Col {
    const char* head;
    std::size_t width;
  };
  // Left-aligned text columns: instance, framework, bound.
  std::vector<Col> cols{{"instance", 16},         {"framework", 16},  {"nodes", 5},   {"gpus", 5},
                        {"step", 10 + wide},      {"samples/s", 11 + wide}, {"compute", 10}, {"comm", 10},
                        {"exposed", 10},          {"loader", 10},     {"optim", 10},  {"bound", 13},
                        {"total", 10 + wide},     {"speedup", 8 + wide}, {"eff", 6},  {"cost", 10 + wide}};
  auto left = [](std::size_t i) { return i == 0 || i == 1 || i == 11; };
  if (uncalibrated) cols.push_back({"uncalibrated", 12});
  if (observed) cols.insert(cols.end(), {{"observed", 10}, {"obs.speedup", 11}, {"error", 8}});
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "  " : "") + pad(cols[i].head, cols[i].width, !left(i));
  out += "\n";
  const auto* base = rep.results.empty() ? nullptr : &rep.results.front();
  for (const auto& r : rep.results) {
    std::vector<std::string> cells{r.instance,
                                   r.framework,
                                   std::to_string(r.nodes),
                                   std::to_string(r.gpus),
                                   time_band(r.step_time_s, r.step_band),
                                   with_band(fmt("%.0f", r.samples_per_s), "%.0f", 1, r.samples_band),
                                   human_time(r.compute_s),
                                   human_time(r.comm_s),
                                   human_time(r.exposed_comm_s),
                                   human_time(r.loader_wait_s),
                                   human_time(r.optimizer_s + r.overhead_s),
                                   r.bound,
                                   time_band(r.total_time_s, r.total_band),
                                   with_band(fmt("%.2fx", r.speedup), "%.2f", 1, r.speedup_band),
                                   fmt("%.0f%%", r.scaling_efficiency * 100),
                                   with_band(fmt("$%.2f", r.cost_usd), "%.2f", 1, r.cost_band)};
    if (uncalibrated)
      cells.push_back(r.uncalibrated_total_s ? human_time(*r.uncalibrated_total_s) : "-");
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
  if (uncalibrated) out += "; uncalibrated = total without the calibration";
  if (bands) out += "; (a-b) = p10-p90 interval";
  out += ".\n";
  for (const std::string& n : rep.notes) out += n + "\n";
  if (!rep.price_source.empty()) out += "prices: " + rep.price_source + "\n";
  for (const auto& r : rep.results)
    for (const std::string& w : r.warnings)
      out += "warning: " + r.instance + " x" + std::to_string(r.nodes) + " " + r.framework + ": " + w + "\n";
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
  j["notes"] = rep.notes;
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
    put_band(o, "step_time_s", r.step_band);
    o["samples_per_s"] = r.samples_per_s;
    put_band(o, "samples_per_s", r.samples_band);
    o["steps"] = r.steps;
    o["total_time_s"] = r.total_time_s;
    put_band(o, "total_time_s", r.total_band);
    o["speedup"] = r.speedup;
    put_band(o, "speedup", r.speedup_band);
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
    put_band(o, "cost_usd", r.cost_band);
    if (r.uncalibrated_step_s) o["uncalibrated_step_time_s"] = *r.uncalibrated_step_s;
    if (r.uncalibrated_total_s) o["uncalibrated_total_time_s"] = *r.uncalibrated_total_s;
    o["warnings"] = r.warnings;
    if (r.observed_minutes) {
      o["observed_total_time_s"] = *r.observed_minutes * 60;
      o["error"] = (r.total_time_s - *r.observed_minutes * 60) / (*r.observed_minutes * 60);
    }
    if (!r.simulated.empty()) o["simulated"] = r.simulated;
    j["results"].push_back(std::move(o));
  }
  return j.dump(2) + "\n";
}

std::string scenario_csv(const sim::ScenarioReport& rep)
{
  std::string out =
      "instance,nodes,gpus,framework,backend,algorithm,step_time_s,samples_per_s,steps,total_time_s,speedup,"
      "scaling_efficiency,compute_s,comm_s,exposed_comm_s,optimizer_s,loader_wait_s,bound,buckets,cost_usd,"
      "observed_total_time_s,step_time_s_p10,step_time_s_p90,samples_per_s_p10,samples_per_s_p90,total_time_s_p10,"
      "total_time_s_p90,speedup_p10,speedup_p90,cost_usd_p10,cost_usd_p90,uncalibrated_total_time_s\n";
  for (const auto& r : rep.results) {
    auto g = [](double v) { return fmt("%.9g", v); };
    out += r.instance + "," + std::to_string(r.nodes) + "," + std::to_string(r.gpus) + "," + r.framework + "," +
           r.backend + "," + r.algorithm + "," + g(r.step_time_s) + "," + g(r.samples_per_s) + "," +
           std::to_string(r.steps) + "," + g(r.total_time_s) + "," + g(r.speedup) + "," + g(r.scaling_efficiency) +
           "," + g(r.compute_s) + "," + g(r.comm_s) + "," + g(r.exposed_comm_s) + "," + g(r.optimizer_s) + "," +
           g(r.loader_wait_s) + "," + r.bound + "," + std::to_string(r.bucket_bytes.size()) + "," + g(r.cost_usd) +
           "," + (r.observed_minutes ? g(*r.observed_minutes * 60) : "");
    for (const auto* b : {&r.step_band, &r.samples_band, &r.total_band, &r.speedup_band, &r.cost_band})
      out += b->set ? "," + g(b->p10) + "," + g(b->p90) : ",,";
    out += "," + (r.uncalibrated_total_s ? g(*r.uncalibrated_total_s) : "") + "\n";
  }
  return out;
}

}  // namespace ddpsim::app
