// The what-if tables under a scenario's table (issue 12): failures and checkpoints, then those of
// app/whatifs/ (issue 17: stragglers, ...) from the columns each declares.
// Issue 20: as the main table, one time unit per column (in its head), instance and framework
// only where they vary (or under --wide), p10-p90 beside the p50 only where not zero-width, and
// the default table within 120 characters; --wide adds the rest, JSON and CSV keep every field.
#include "app/output/whatif_tables.hpp"

#include <functional>
#include <set>

#include "app/output/text_table.hpp"
#include "app/whatifs/whatif_view.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

using Result = sim::ConfigResult;
template <typename T>
using Of = std::function<T(const Result&)>;

// The rows that carry a what-if result, and the identifying columns every what-if table starts with.
struct Rows {
  std::vector<const Result*> rows;
  std::vector<TableColumn> cols;
  TableColumn text(const std::string& head, bool left, const Of<std::string>& f) const
  {
    TableColumn c{head, left, {}};
    for (const Result* r : rows) c.cells.push_back(f(*r));
    return c;
  }
  void time(const std::string& head, const Of<std::optional<double>>& f)
  {
    std::vector<std::optional<double>> v;
    for (const Result* r : rows) v.push_back(f(*r));
    cols.push_back(time_column(head, v));
  }
};

Rows rows_of(const sim::ScenarioReport& rep, bool wide, const Of<bool>& has)
{
  Rows t;
  std::set<std::string> instances, frameworks;
  for (const Result& r : rep.results)
    if (has(r)) t.rows.push_back(&r), instances.insert(r.instance), frameworks.insert(r.framework);
  if (wide || instances.size() > 1) t.cols.push_back(t.text("instance", true, [](const Result& r) { return printable(r.instance); }));
  if (wide || frameworks.size() > 1) t.cols.push_back(t.text("framework", true, [](const Result& r) { return r.framework; }));
  t.cols.push_back(t.text("nodes", false, [](const Result& r) { return std::to_string(r.nodes); }));
  return t;
}

}  // namespace

// Failures and checkpoints (issue 12): one line per configuration under the main table.
std::string resilience_table(const sim::ScenarioReport& rep, bool wide)
{
  Rows t = rows_of(rep, wide, [](const Result& r) { return r.resilience.has_value(); });
  if (t.rows.empty()) return "";
  const sim::ResilienceResult& first = *t.rows.front()->resilience;
  auto x = [](const Result& r) -> const sim::ResilienceResult& { return *r.resilience; };
  t.time("job MTBF", [&](const Result& r) { return x(r).job_mtbf_s; });
  if (wide) {
    t.cols.push_back(t.text("ckpt [GB]", false, [&](const Result& r) { return fmt("%.1f", static_cast<double>(x(r).checkpoint_bytes) / 1e9); }));
    t.time("write", [&](const Result& r) { return x(r).checkpoint_write_s; });
  }
  t.time("restart", [&](const Result& r) { return x(r).restart_s; });
  t.time("interval", [&](const Result& r) { return x(r).interval_s; });
  if (wide) t.time("Young", [&](const Result& r) { return x(r).young_interval_s; });
  t.cols.push_back(t.text("failures", false, [&](const Result& r) { return fmt("%.2f", x(r).expected_failures); }));
  t.cols.push_back(t.text("ETTR", false, [&](const Result& r) { return fmt("%.1f%%", x(r).efficiency * 100); }));
  // A configuration that does not fit cannot run: no expected time or cost, as in the main table.
  t.time("expected", [&](const Result& r) -> std::optional<double> {
    if (!r.fits) return std::nullopt;
    return x(r).expected_time_s + r.startup_s;
  });
  t.cols.push_back(t.text("exp.cost [$]", false, [&](const Result& r) { return r.fits ? fmt("%.2f", x(r).expected_cost_usd) : "-"; }));
  std::vector<std::optional<std::array<double, 3>>> mc;
  for (const Result* r : t.rows) {
    const sim::ResilienceResult& v = x(*r);
    if (v.trials > 0 && r->fits) mc.push_back(std::array<double, 3>{v.mc_p50_s + r->startup_s, v.mc_p10_s + r->startup_s, v.mc_p90_s + r->startup_s});
    else mc.push_back(std::nullopt);
  }
  t.cols.push_back(band_column("Monte Carlo", mc));

  std::string out = "\n" + wrap_words("failures and checkpoints (node MTBF " + human_time(first.node_mtbf_s) + ": " +
                                          first.mtbf_source + "):", 118);
  out += render_columns(t.cols);
  std::string legend = "job MTBF = node MTBF / nodes; restart = re-queue + restart + checkpoint read; interval = checkpoint "
                       "every (Daly's optimum unless given), to storage " + first.storage;
  if (wide) legend += "; ckpt = checkpoint size, write = its write time; Young = sqrt(2 write x job MTBF)";
  legend += "; failures = expected failures; ETTR = failure-free time / expected; expected = start-up + Daly's expected "
            "wall time; Monte Carlo = p50 (p10-p90) of a seeded simulation of the same failure process (the interval "
            "shown where it is not zero-width)";
  if (!wide) legend += "; --wide adds the checkpoint's size and write time and Young's interval";
  out += wrap_words(legend + ".", 110);
  bool unfit = false, no_mc = false;  // issue 20: why a cell is "-", one line each
  for (const Result* r : t.rows) unfit = unfit || !r->fits, no_mc = no_mc || x(*r).trials == 0;
  if (no_mc) out += "- under Monte Carlo = no Monte Carlo asked (resilience.monte_carlo: {trials: N}).\n";
  if (unfit) out += "- under expected, exp.cost and Monte Carlo = does not fit in memory (no expected time or cost).\n";
  return out;
}

// A what-if of app/whatifs/ (issue 17): its title, the columns its view declares, its legend.
std::string whatif_table(const sim::ScenarioReport& rep, const WhatIfView& v, bool wide)
{
  Rows t = rows_of(rep, wide, [&](const Result& r) { return r.whatif(v.name) != nullptr; });
  if (t.rows.empty()) return "";
  auto x = [&](const Result& r) -> const sim::WhatIfResult& { return *r.whatif(v.name); };
  for (const WhatIfColumn& c : v.table) {
    if (c.show == Show::time) t.time(c.head, [&](const Result& r) { return x(r).number(c.field); });
    else
      t.cols.push_back(t.text(c.head, false, [&](const Result& r) {
        return c.show == Show::integer ? std::to_string(x(r).count(c.field)) : fmt(c.format.c_str(), x(r).number(c.field));
      }));
  }
  return "\n" + v.title(x(*t.rows.front())) + "\n" + render_columns(t.cols) + wrap_words(v.legend, 110);
}

std::string whatif_tables(const sim::ScenarioReport& rep, bool wide)
{
  std::string out;
  for (const WhatIfView* v : whatif_views()) out += whatif_table(rep, *v, wide);
  return out;
}

}  // namespace ddpsim::app
