#include "app/output/report.hpp"
#include "app/output/text_format.hpp"
#include "app/output/time_units.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace ddpsim::app {
namespace {

void put_band(nlohmann::ordered_json& o, const std::string& key, const sim::ConfigResult::Band& b)
{
  if (!b.set) return;
  o[key + "_p10"] = b.p10;
  o[key + "_p90"] = b.p90;
}

std::string join_warnings(const sim::ConfigResult& r)
{
  std::string out;
  for (const std::string& w : r.warnings) out += (out.empty() ? "" : "; ") + w;
  if (!r.fits) out += (out.empty() ? "" : "; ") + fit_note(r);
  return out;
}

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

std::string scenario_json(const sim::ScenarioReport& rep)
{
  nlohmann::ordered_json j;
  j["scenario"] = rep.scenario;
  j["description"] = rep.description;
  j["engine"] = rep.engine;
  if (rep.granularity != "coarse") j["granularity"] = rep.granularity;  // issue 21: --granularity step
  j["model"] = rep.model;
  j["parameters"] = rep.parameters;
  j["price_source"] = rep.price_source;
  j["profile"] = rep.profile_source;
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
    o["mfu"] = r.mfu;                    // issue 19
    o["tokens_per_s"] = r.tokens_per_s;  // 0: not a sequence model
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
    if (r.observed_step_s) {  // issue 20
      o["observed_step_time_s"] = *r.observed_step_s;
      o["step_time_error"] = (r.step_time_s - *r.observed_step_s) / *r.observed_step_s;
    }
    if (r.observed_samples_per_s) {
      o["observed_samples_per_s"] = *r.observed_samples_per_s;
      o["samples_per_s_error"] = (r.samples_per_s - *r.observed_samples_per_s) / *r.observed_samples_per_s;
    }
    if (r.observed_minutes && r.uncalibrated_total_s)
      o["uncalibrated_error"] = (*r.uncalibrated_total_s - *r.observed_minutes * 60) / (*r.observed_minutes * 60);
    if (!r.fit_role.empty()) o["fit"] = r.fit_role;
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
      "uncalibrated_total_time_s,mfu,tokens_per_s";
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
  bool obs = false;  // issue 20: observed step time / throughput and fit roles
  for (const auto& r : rep.results) obs = obs || r.observed_step_s || r.observed_samples_per_s || !r.fit_role.empty();
  if (obs) out += ",observed_step_time_s,observed_samples_per_s,fit";
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
    out += "," + g(r.mfu) + "," + g(r.tokens_per_s);  // issue 19
    if (deg) {
      std::string d;
      for (const std::string& x : r.degraded) d += (d.empty() ? "" : "; ") + x;
      out += ",\"" + d + "\"";
    }
    if (comp) out += "," + r.compiler;
    if (obs) {
      out += "," + (r.observed_step_s ? g(*r.observed_step_s) : "") + "," +
             (r.observed_samples_per_s ? g(*r.observed_samples_per_s) : "") + "," + r.fit_role;
    }
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
