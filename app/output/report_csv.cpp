#include "app/output/report.hpp"

#include "app/output/text_format.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

std::string join_warnings(const sim::ConfigResult& r)
{
  std::string out;
  for (const std::string& w : r.warnings) out += (out.empty() ? "" : "; ") + w;
  if (!r.fits) out += (out.empty() ? "" : "; ") + fit_note(r);
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
