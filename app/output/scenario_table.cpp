// `ddpsim scenario`'s terminal table (issue 20): the columns of app/output/scenario_columns.hpp padded,
// a legend for the columns shown, then the notes, prices, warnings and the what-if tables.
#include "app/output/report.hpp"

#include <functional>

#include "app/output/scenario_columns.hpp"
#include "app/output/text_format.hpp"
#include "app/output/text_table.hpp"
#include "app/output/time_units.hpp"
#include "app/output/whatif_tables.hpp"
#include "core/text.hpp"

namespace ddpsim::app {

std::string scenario_table(const sim::ScenarioReport& rep, bool wide)
{
  // Names come from the user's file: printable() keeps each on its line and the output valid UTF-8.
  std::string out = wrap_words("scenario " + printable(rep.scenario) + (rep.description.empty() ? "" : ": " + printable(rep.description)), 118);
  out += "model " + printable(rep.model) + " (" + fmt("%.2f", static_cast<double>(rep.parameters) / 1e6) +
         " M parameters), network " + rep.engine + "\n";
  const ScenarioColumns t = scenario_columns(rep, wide);
  if (!t.context.empty()) out += t.context + "\n";
  out += "\n";
  out += render_columns(t.columns);
  bool bands = false;
  for (const auto& r : rep.results) bands = bands || r.total_band.set;
  std::string legend;
  for (const std::string& l : t.legend) legend += (legend.empty() ? "" : "; ") + l;
  if (bands) legend += "; (a-b) = p10-p90 interval (shown where it is not zero-width)";
  if (!wide) legend += "; --wide adds throughput, the step's breakdown, efficiency, memory and every interval";
  out += "\n" + wrap_words(legend + ".", 110);
  // Notes and prices wrapped as the legend, so the default output stays within 120 columns.
  for (const std::string& n : rep.notes) out += wrap_words(n, 118);
  if (!rep.profile_source.empty()) out += wrap_words("network profile: " + rep.profile_source, 118);
  if (!rep.price_source.empty()) out += wrap_words("prices: " + rep.price_source, 118);
  for (const auto& r : rep.results)
    if (!r.fits) out += r.instance + " x" + std::to_string(r.nodes) + " " + r.framework + ": " + fit_note(r) + "\n";
  for (const auto& r : rep.results)
    for (const std::string& w : r.warnings)
      out += wrap_words("warning: " + printable(r.instance) + " x" + std::to_string(r.nodes) + " " + r.framework + ": " + printable(w), 118);
  // The flow engine says how it simulated each row (sim::ConfigResult::simulated; with
  // --per-rank the analytical rows say it too, and the notes say so for them).
  for (const auto& r : rep.results)
    if (!r.simulated.empty() && rep.engine == "flow")
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
      std::string l = std::to_string(r.nodes) + " nodes " + r.framework + ": degraded:";
      for (std::size_t i = 0; i < r.degraded.size(); ++i) l += (i ? "; " : " ") + r.degraded[i];
      out += wrap_words(l, 118);
    }
  out += whatif_tables(rep, wide);
  return out;
}

}  // namespace ddpsim::app
