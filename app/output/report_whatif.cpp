// The what-if tables under `ddpsim scenario`'s main table (issue 12): failures and checkpoints,
// stragglers and jitter.
#include "app/output/report_parts.hpp"

namespace ddpsim::app {

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

}  // namespace ddpsim::app
