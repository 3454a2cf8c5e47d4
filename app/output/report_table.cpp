#include "app/output/report.hpp"

#include "app/output/report_parts.hpp"
#include "core/text.hpp"

namespace ddpsim::app {

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

}  // namespace ddpsim::app
