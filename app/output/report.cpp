#include "app/output/report.hpp"
#include "app/output/text_format.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace ddpsim::app {
namespace {

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

// RFC 4180: a field with a comma, quote or newline is quoted, quotes doubled.
std::string csv_quote(const std::string& s)
{
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string join_warnings(const sim::ConfigResult& r)
{
  std::string out;
  for (const std::string& w : r.warnings) out += (out.empty() ? "" : "; ") + w;
  if (!r.fits) out += (out.empty() ? "" : "; ") + fit_note(r);
  return out;
}

std::string gib(Bytes b) { return fmt("%.1f GiB", static_cast<double>(b.n) / static_cast<double>(GiB)); }

nlohmann::ordered_json memory_json(const sim::MemoryBreakdown& m)
{
  nlohmann::ordered_json o;
  o["parameters"] = m.parameters.n;
  o["gradients"] = m.gradients.n;
  o["optimizer"] = m.optimizer.n;
  o["buckets"] = m.buckets.n;
  o["activations"] = m.activations.n;
  o["workspace"] = m.workspace.n;
  o["total"] = m.total().n;
  o["capacity"] = m.capacity.n;
  return o;
}

// `fits`: a configuration that does not fit in memory cannot run, so its expected time and cost are
// null like the main row's total and cost (the failure model's inputs stay for reference).
nlohmann::ordered_json resilience_json(const sim::ResilienceResult& x, bool fits)
{
  nlohmann::ordered_json o;
  o["node_mtbf_s"] = x.node_mtbf_s;
  o["mtbf_source"] = x.mtbf_source;
  o["job_mtbf_s"] = x.job_mtbf_s;
  o["storage"] = x.storage;
  o["checkpoint_bytes"] = x.checkpoint_bytes;
  o["checkpoint_write_s"] = x.checkpoint_write_s;
  o["checkpoint_read_s"] = x.checkpoint_read_s;
  o["restart_s"] = x.restart_s;
  o["young_interval_s"] = x.young_interval_s;
  o["daly_interval_s"] = x.daly_interval_s;
  o["interval_s"] = x.interval_s;
  o["work_s"] = x.work_s;
  o["expected_time_s"] = x.expected_time_s;
  o["expected_total_time_s"] = x.expected_total_time_s;
  o["expected_failures"] = x.expected_failures;
  o["checkpoint_overhead_s"] = x.checkpoint_overhead_s;
  o["lost_s"] = x.lost_s;
  o["efficiency"] = x.efficiency;
  o["expected_cost_usd"] = x.expected_cost_usd;
  if (!fits)
    for (const char* k : {"expected_time_s", "expected_total_time_s", "expected_cost_usd"}) o[k] = nullptr;
  if (x.trials > 0 && fits) {
    o["monte_carlo"] = {{"trials", x.trials}, {"mean_s", x.mc_mean_s}, {"p10_s", x.mc_p10_s}, {"p50_s", x.mc_p50_s},
                        {"p90_s", x.mc_p90_s}};
  }
  return o;
}

// Failures and checkpoints (issue 12): one line per configuration under the main table.
std::string resilience_table(const sim::ScenarioReport& rep)
{
  std::string out;
  for (const auto& r : rep.results) {
    if (!r.resilience) continue;
    const sim::ResilienceResult& x = *r.resilience;
    if (out.empty())
      out = "\nfailures and checkpoints (" + x.mtbf_source + "; node MTBF " + human_time(x.node_mtbf_s) + "):\n" +
            pad("instance", 16, false) + "  " + pad("framework", 16, false) + "  " + pad("nodes", 5) + "  " +
            pad("job MTBF", 10) + "  " + pad("ckpt", 10) + "  " + pad("write", 10) + "  " + pad("restart", 10) + "  " +
            pad("interval", 10) + "  " + pad("Young", 10) + "  " + pad("failures", 8) + "  " + pad("expected", 10) +
            "  " + pad("ETTR", 6) + "  " + pad("exp.cost", 10) + "  " + pad("p10", 10) + "  " + pad("p50", 10) + "  " +
            pad("p90", 10) + "\n";
    // A configuration that does not fit cannot run: no expected time or cost, as in the main table.
    const bool mc = x.trials > 0 && r.fits;
    out += pad(r.instance, 16, false) + "  " + pad(r.framework, 16, false) + "  " + pad(std::to_string(r.nodes), 5) +
           "  " + pad(human_time(x.job_mtbf_s), 10) + "  " + pad(fmt("%.1f GB", static_cast<double>(x.checkpoint_bytes) / 1e9), 10) +
           "  " + pad(human_time(x.checkpoint_write_s), 10) + "  " + pad(human_time(x.restart_s), 10) + "  " +
           pad(human_time(x.interval_s), 10) + "  " + pad(human_time(x.young_interval_s), 10) + "  " +
           pad(fmt("%.2f", x.expected_failures), 8) + "  " + pad(r.fits ? human_time(x.expected_time_s + r.startup_s) : "-", 10) + "  " +
           pad(fmt("%.1f%%", x.efficiency * 100), 6) + "  " + pad(r.fits ? fmt("$%.2f", x.expected_cost_usd) : "-", 10) + "  " +
           pad(mc ? human_time(x.mc_p10_s + r.startup_s) : "-", 10) + "  " + pad(mc ? human_time(x.mc_p50_s + r.startup_s) : "-", 10) +
           "  " + pad(mc ? human_time(x.mc_p90_s + r.startup_s) : "-", 10) + "\n";
  }
  if (!out.empty())
    out += "storage = where checkpoints go (" + rep.results.front().resilience->storage +
           "); interval = checkpoint every (Daly's optimum unless given), Young = sqrt(2 write x job MTBF);\n"
           "restart = re-queue + restart + checkpoint read; expected = start-up + Daly's expected wall time;\n"
           "ETTR = failure-free time / expected; p10/p50/p90 = seeded Monte Carlo of the same failure process;\n"
           "- = does not fit in memory (no expected time or cost).\n";
  return out;
}

// Stragglers and jitter (issue 12): one line per configuration under the main table.
std::string stragglers_table(const sim::ScenarioReport& rep)
{
  std::string out;
  for (const auto& r : rep.results) {
    if (!r.stragglers) continue;
    const sim::StragglerResult& x = *r.stragglers;
    if (out.empty())
      out = "\nstragglers (" + std::to_string(x.steps) + " steps simulated, every rank):\n" + pad("instance", 16, false) +
            "  " + pad("framework", 16, false) + "  " + pad("nodes", 5) + "  " + pad("nominal", 10) + "  " +
            pad("step p50", 10) + "  " + pad("step p99", 10) + "  " + pad("mean", 10) + "  " + pad("slowdown", 8) + "  " +
            pad("sync wait", 10) + "  " + pad("max wait", 10) + "  " + pad("total", 10) + "\n";
    out += pad(r.instance, 16, false) + "  " + pad(r.framework, 16, false) + "  " + pad(std::to_string(r.nodes), 5) +
           "  " + pad(human_time(x.nominal_step_s), 10) + "  " + pad(human_time(x.step_p50_s), 10) + "  " +
           pad(human_time(x.step_p99_s), 10) + "  " + pad(human_time(x.step_mean_s), 10) + "  " +
           pad(fmt("%.3fx", x.slowdown), 8) + "  " + pad(human_time(x.sync_wait_mean_s), 10) + "  " +
           pad(human_time(x.sync_wait_max_s), 10) + "  " +
           pad(human_time(r.startup_s + x.step_mean_s * static_cast<double>(r.steps)), 10) + "\n";
  }
  if (!out.empty())
    out += "step p50/p99/mean over the simulated steps (time between the last rank's step ends); sync wait = how\n"
           "long a rank's last bucket waits for the slowest rank's gradients (mean, max); total = start-up + steps x mean.\n";
  return out;
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

std::string fit_note(const sim::ConfigResult& r)
{
  return (r.fits ? "fits: " : "does not fit: ") + sim::memory_need(r.memory);
}

std::string scenario_table(const sim::ScenarioReport& rep)
{
  // Names come from the user's file: printable() keeps each on its line and the output valid UTF-8.
  std::string out = "scenario " + printable(rep.scenario) + (rep.description.empty() ? "" : ": " + printable(rep.description)) + "\n";
  out += "model " + printable(rep.model) + " (" + fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) +
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
                        {"total", 10 + wide},     {"speedup", 8 + wide}, {"eff", 6},  {"cost", 10 + wide},
                        {"memory/GPU", 10}};
  auto left = [](std::size_t i) { return i == 0 || i == 1 || i == 11; };
  if (uncalibrated) cols.push_back({"uncalibrated", 12});
  if (observed) cols.insert(cols.end(), {{"observed", 10}, {"obs.speedup", 11}, {"error", 8}});
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "  " : "") + pad(cols[i].head, cols[i].width, !left(i));
  out += "\n";
  for (const auto& r : rep.results) {
    const auto* base = &sim::block_base(rep.results, r);  // speedups within the framework's block
    std::vector<std::string> cells{printable(r.instance),
                                   r.compiler.empty() ? r.framework : r.framework + "+compiler",
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
                                   r.fits ? time_band(r.total_time_s, r.total_band) : "-",
                                   with_band(fmt("%.2fx", r.speedup), "%.2f", 1, r.speedup_band),
                                   fmt("%.0f%%", r.scaling_efficiency * 100),
                                   r.fits ? with_band(fmt("$%.2f", r.cost_usd), "%.2f", 1, r.cost_band) : "-",
                                   gib(r.memory.total()) + (r.fits ? "" : " !")};
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
         "against the first row of the same framework";
  if (observed) out += "; error = predicted total vs observed";
  out += ";\nmemory/GPU = parameters + gradients + optimizer state + buckets + activations + CUDA/NCCL\n"
         "workspace (! = does not fit: no total or cost)";
  if (uncalibrated) out += "; uncalibrated = total without the calibration";
  if (bands) out += "; (a-b) = p10-p90 interval";
  out += ".\n";
  for (const std::string& n : rep.notes) out += n + "\n";
  if (!rep.price_source.empty()) out += "prices: " + rep.price_source + "\n";
  for (const auto& r : rep.results)
    if (!r.fits) out += r.instance + " x" + std::to_string(r.nodes) + " " + r.framework + ": " + fit_note(r) + "\n";
  for (const auto& r : rep.results)
    for (const std::string& w : r.warnings)
      out += "warning: " + printable(r.instance) + " x" + std::to_string(r.nodes) + " " + r.framework + ": " + printable(w) + "\n";
  // The flow engine says how it simulated each row (sim::ConfigResult::simulated).
  for (const auto& r : rep.results)
    if (!r.simulated.empty())
      out += std::to_string(r.nodes) + " nodes: the flow engine simulated " +
             (r.simulated == "symmetric" ? "one symmetry period standing for all ranks" : "every rank (one period only, or ranks that differ)") +
             ".\n";
  for (const auto& r : rep.results)  // issue 12: compiled rows
    if (!r.compiler.empty()) {
      out += "+compiler: " + r.compiler + " on " + std::to_string(r.nodes) + " node(s): compute time x" +
             fmt("%.2f", r.compiler_compute_scale) + ", memory per sample x" + fmt("%.2f", r.compiler_memory_scale) +
             " (docs/whatif.md)\n";
    }
  for (const auto& r : rep.results)  // issue 12: degraded links
    if (!r.degraded.empty()) {
      out += std::to_string(r.nodes) + " nodes " + r.framework + ": degraded:";
      for (std::size_t i = 0; i < r.degraded.size(); ++i) out += (i ? "; " : " ") + r.degraded[i];
      out += "\n";
    }
  out += resilience_table(rep);
  out += stragglers_table(rep);
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
    // A row that does not fit in memory cannot run: no total time, no cost (null).
    o["total_time_s"] = r.fits ? nlohmann::ordered_json(r.total_time_s) : nlohmann::ordered_json();
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
    o["interference_s"] = r.interference_s;  // issue 9: sim/step/overheads.hpp
    o["bucket_copy_s"] = r.bucket_copy_s;
    o["launch_s"] = r.launch_s;
    o["negotiation_s"] = r.negotiation_s;
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
    o["cost_usd"] = r.fits ? nlohmann::ordered_json(r.cost_usd) : nlohmann::ordered_json();
    put_band(o, "cost_usd", r.cost_band);
    o["fits"] = r.fits;
    o["memory"] = fit_note(r);
    o["memory_bytes"] = memory_json(r.memory);
    if (r.gather_s > 0) o["gather_s"] = r.gather_s;
    if (r.uncalibrated_step_s) o["uncalibrated_step_time_s"] = *r.uncalibrated_step_s;
    if (r.uncalibrated_total_s) o["uncalibrated_total_time_s"] = *r.uncalibrated_total_s;
    o["warnings"] = r.warnings;
    if (r.observed_minutes) {
      o["observed_total_time_s"] = *r.observed_minutes * 60;
      o["error"] = (r.total_time_s - *r.observed_minutes * 60) / (*r.observed_minutes * 60);
    }
    if (!r.simulated.empty()) o["simulated"] = r.simulated;
    if (r.resilience) o["resilience"] = resilience_json(*r.resilience, r.fits);  // issue 12
    if (!r.degraded.empty()) o["degraded"] = r.degraded;                   // issue 12
    if (const auto& x = r.stragglers) {                                     // issue 12
      o["stragglers"] = {{"steps_simulated", x->steps},           {"nominal_step_s", x->nominal_step_s},
                         {"step_mean_s", x->step_mean_s},         {"step_p50_s", x->step_p50_s},
                         {"step_p99_s", x->step_p99_s},           {"slowdown", x->slowdown},
                         {"sync_wait_mean_s", x->sync_wait_mean_s}, {"sync_wait_max_s", x->sync_wait_max_s},
                         {"total_time_s", r.startup_s + x->step_mean_s * static_cast<double>(r.steps)}};
    }
    if (!r.compiler.empty())                                                // issue 12
      o["compiler"] = {{"name", r.compiler}, {"compute_scale", r.compiler_compute_scale},
                       {"memory_scale", r.compiler_memory_scale}};
    j["results"].push_back(std::move(o));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string scenario_csv(const sim::ScenarioReport& rep)
{
  std::string out =
      "instance,nodes,gpus,framework,backend,algorithm,step_time_s,samples_per_s,steps,total_time_s,speedup,"
      "scaling_efficiency,compute_s,comm_s,exposed_comm_s,optimizer_s,loader_wait_s,bound,buckets,cost_usd,"
      "observed_total_time_s,fits,memory_gib,warnings,step_time_s_p10,step_time_s_p90,samples_per_s_p10,"
      "samples_per_s_p90,total_time_s_p10,total_time_s_p90,speedup_p10,speedup_p90,cost_usd_p10,cost_usd_p90,"
      "uncalibrated_total_time_s";
  // Failures and checkpoints (issue 12): extra columns only when the scenario asks for them.
  bool res = false;
  for (const auto& r : rep.results) res = res || r.resilience.has_value();
  bool deg = false;
  for (const auto& r : rep.results) deg = deg || !r.degraded.empty();
  if (deg) out += ",degraded";
  bool comp = false;
  for (const auto& r : rep.results) comp = comp || !r.compiler.empty();
  if (comp) out += ",compiler";
  bool strag = false;
  for (const auto& r : rep.results) strag = strag || r.stragglers.has_value();
  if (strag) out += ",straggler_step_p50_s,straggler_step_p99_s,straggler_step_mean_s,sync_wait_mean_s";
  if (res) out += ",job_mtbf_s,checkpoint_write_s,restart_s,checkpoint_interval_s,expected_total_time_s,expected_failures,"
                  "expected_cost_usd,mc_p10_s,mc_p50_s,mc_p90_s";
  out += "\n";
  for (const auto& r : rep.results) {
    auto g = [](double v) { return fmt("%.9g", v); };
    out += csv(r.instance) + "," + std::to_string(r.nodes) + "," + std::to_string(r.gpus) + "," + csv(r.framework) + "," +
           csv(r.backend) + "," + csv(r.algorithm) + "," + g(r.step_time_s) + "," + g(r.samples_per_s) + "," +
           std::to_string(r.steps) + "," + (r.fits ? g(r.total_time_s) : "") + "," + g(r.speedup) + "," + g(r.scaling_efficiency) +
           "," + g(r.compute_s) + "," + g(r.comm_s) + "," + g(r.exposed_comm_s) + "," + g(r.optimizer_s) + "," +
           g(r.loader_wait_s) + "," + csv(r.bound) + "," + std::to_string(r.bucket_bytes.size()) + "," +
           (r.fits ? g(r.cost_usd) : "") + "," + (r.observed_minutes ? g(*r.observed_minutes * 60) : "") + "," +
           (r.fits ? "true" : "false") + "," + g(static_cast<double>(r.memory.total().n) / static_cast<double>(GiB)) +
           "," + csv_quote(join_warnings(r));
    for (const auto* b : {&r.step_band, &r.samples_band, &r.total_band, &r.speedup_band, &r.cost_band})
      out += b->set ? "," + g(b->p10) + "," + g(b->p90) : ",,";
    out += "," + (r.uncalibrated_total_s ? g(*r.uncalibrated_total_s) : "");
    if (deg) {
      std::string d;
      for (const std::string& x : r.degraded) d += (d.empty() ? "" : "; ") + x;
      out += ",\"" + d + "\"";
    }
    if (comp) out += "," + r.compiler;
    if (strag) {
      const auto& x = r.stragglers;
      out += x ? "," + g(x->step_p50_s) + "," + g(x->step_p99_s) + "," + g(x->step_mean_s) + "," + g(x->sync_wait_mean_s)
               : ",,,,";
    }
    if (const auto& x = r.resilience) {
      const bool mc = x->trials > 0 && r.fits;  // a row that does not fit has no expected time or cost
      out += "," + g(x->job_mtbf_s) + "," + g(x->checkpoint_write_s) + "," + g(x->restart_s) + "," + g(x->interval_s) +
             "," + (r.fits ? g(x->expected_time_s + r.startup_s) : "") + "," + g(x->expected_failures) + "," +
             (r.fits ? g(x->expected_cost_usd) : "") +
             "," + (mc ? g(x->mc_p10_s + r.startup_s) : "") + "," + (mc ? g(x->mc_p50_s + r.startup_s) : "") + "," +
             (mc ? g(x->mc_p90_s + r.startup_s) : "");
    } else if (res) {
      out += ",,,,,,,,,,";
    }
    out += "\n";
  }
  return out;
}

}  // namespace ddpsim::app
