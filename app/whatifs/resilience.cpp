// `resilience:`: node failures and checkpoints (what-if; docs/whatif.md, sim/study/whatifs/resilience.hpp):
// the section read by app/input/resilience_loader.hpp (with the checkpoint-storage catalog), and shown.
#include <array>

#include "app/input/resilience_loader.hpp"
#include "app/output/text_table.hpp"
#include "app/output/whatif_tables.hpp"
#include "app/whatifs/whatif_view.hpp"

namespace ddpsim::app {
namespace {

using Result = sim::ConfigResult;

std::shared_ptr<const sim::WhatIf> read(Reader& r, const YAML::Node& n, const sim::ScenarioSpec&)
{
  sim::ResilienceSpec spec;
  read_resilience(r, n, spec);
  return sim::resilience_whatif(spec);
}

// One line per configuration under the main table (issue 20: "-" cells explained, one line each).
std::string table(const sim::ScenarioReport& rep, bool wide)
{
  WhatIfRows t = whatif_rows(rep, wide, "resilience");
  if (t.rows.empty()) return "";
  auto x = [](const Result& r) -> const sim::WhatIfResult& { return *r.whatif("resilience"); };
  auto num = [&](const char* field) { return [&x, field](const Result& r) -> std::optional<double> { return x(r).number(field); }; };
  const sim::WhatIfResult& first = x(*t.rows.front());
  t.time("job MTBF", num("job_mtbf_s"));
  if (wide) {
    t.cols.push_back(t.text("ckpt [GB]", false, [&](const Result& r) { return fmt("%.1f", x(r).number("checkpoint_bytes") / 1e9); }));
    t.time("write", num("checkpoint_write_s"));
  }
  t.time("restart", num("restart_s"));
  t.time("interval", num("interval_s"));
  if (wide) t.time("Young", num("young_interval_s"));
  t.cols.push_back(t.text("failures", false, [&](const Result& r) { return fmt("%.2f", x(r).number("expected_failures")); }));
  t.cols.push_back(t.text("ETTR", false, [&](const Result& r) { return fmt("%.1f%%", x(r).number("efficiency") * 100); }));
  // A configuration that does not fit cannot run: no expected time or cost (null), as in the main table.
  t.time("expected", [&](const Result& r) -> std::optional<double> {
    return x(r).is_null("expected_total_time_s") ? std::nullopt : std::optional(x(r).number("expected_total_time_s"));
  });
  t.cols.push_back(t.text("exp.cost [$]", false, [&](const Result& r) {
    return x(r).is_null("expected_cost_usd") ? "-" : fmt("%.2f", x(r).number("expected_cost_usd"));
  }));
  std::vector<std::optional<std::array<double, 3>>> mc;
  for (const Result* r : t.rows) {
    const sim::WhatIfResult& v = x(*r);
    if (v.find("mc_p50_total_s"))
      mc.push_back(std::array<double, 3>{v.number("mc_p50_total_s"), v.number("mc_p10_total_s"), v.number("mc_p90_total_s")});
    else mc.push_back(std::nullopt);
  }
  t.cols.push_back(band_column("Monte Carlo", mc));

  std::string out = "\n" + wrap_words("failures and checkpoints (node MTBF " + human_time(first.number("node_mtbf_s")) +
                                          ": " + first.text("mtbf_source") + "):", 118);
  out += render_columns(t.cols);
  std::string legend = "job MTBF = node MTBF / nodes; restart = re-queue + restart + checkpoint read; interval = checkpoint "
                       "every (Daly's optimum unless given), to storage " + first.text("storage");
  if (wide) legend += "; ckpt = checkpoint size, write = its write time; Young = sqrt(2 write x job MTBF)";
  legend += "; failures = expected failures; ETTR = failure-free time / expected; expected = start-up + Daly's expected "
            "wall time; Monte Carlo = p50 (p10-p90) of a seeded simulation of the same failure process (the interval "
            "shown where it is not zero-width)";
  if (!wide) legend += "; --wide adds the checkpoint's size and write time and Young's interval";
  out += wrap_words(legend + ".", 110);
  bool unfit = false, no_mc = false;  // why a cell is "-"
  for (const Result* r : t.rows) unfit = unfit || !r->fits, no_mc = no_mc || x(*r).count("trials") == 0;
  if (no_mc) out += "- under Monte Carlo = no Monte Carlo asked (resilience.monte_carlo: {trials: N}).\n";
  if (unfit) out += "- under expected, exp.cost and Monte Carlo = does not fit in memory (no expected time or cost).\n";
  return out;
}

}  // namespace

const WhatIfView& whatif_view_resilience()
{
  static const WhatIfView view{
      .name = "resilience",
      .keys = {{"resilience", {"node_mtbf", "gpu_mtbf", "mtbf_source", "checkpoint", "restart", "requeue", "monte_carlo"}},
               {"resilience.checkpoint", {"every", "storage", "writers", "size"}},
               {"resilience.checkpoint.storage",
                {"description", "capacity", "per_unit_throughput", "write_per_client", "read_per_client", "write_aggregate",
                 "read_aggregate", "part_size", "put_per_s", "get_per_s", "survives_node_loss", "kind"}},
               {"resilience.monte_carlo", {"trials", "seed"}}},
      .section_after = "observed",
      .parse = read,
      .json = {"node_mtbf_s", "mtbf_source", "job_mtbf_s", "storage", "checkpoint_bytes", "checkpoint_write_s",
               "checkpoint_read_s", "restart_s", "young_interval_s", "daly_interval_s", "interval_s", "work_s",
               "expected_time_s", "expected_total_time_s", "expected_failures", "checkpoint_overhead_s", "lost_s",
               "efficiency", "expected_cost_usd", "monte_carlo.trials", "monte_carlo.mean_s", "monte_carlo.p10_s",
               "monte_carlo.p50_s", "monte_carlo.p90_s"},
      .json_after = "simulated",
      .csv = {{"job_mtbf_s", "job_mtbf_s", Show::time, "", 50},
              {"checkpoint_write_s", "checkpoint_write_s", Show::time, "", 51},
              {"restart_s", "restart_s", Show::time, "", 52},
              {"checkpoint_interval_s", "interval_s", Show::time, "", 53},
              {"expected_total_time_s", "expected_total_time_s", Show::time, "", 54},
              {"expected_failures", "expected_failures", Show::fixed, "", 55},
              {"expected_cost_usd", "expected_cost_usd", Show::fixed, "", 56},
              {"mc_p10_s", "mc_p10_total_s", Show::time, "", 57},
              {"mc_p50_s", "mc_p50_total_s", Show::time, "", 58},
              {"mc_p90_s", "mc_p90_total_s", Show::time, "", 59}},
      .table_text = table,
      .html_heading = "What-if: failures and checkpoints",
      .html = {{"job MTBF", "job_mtbf_s"},
               {"storage", "storage", Show::text},
               {"checkpoint write", "checkpoint_write_s"},
               {"interval", "interval_s"},
               {"failure-free", "work_s"},
               {"expected", "expected_total_time_s", Show::time, "", 0, "does not fit"},
               {"failures", "expected_failures", Show::fixed, "%.2f"},
               {"ETTR", "efficiency", Show::fixed, "%.1f%%", 0, "-", 100},
               {"expected cost", "expected_cost_usd", Show::fixed, "$%.2f"}},
      .html_note = "expected = start-up + Daly's expected wall time with checkpoints every interval; ETTR = failure-free "
                   "time / expected time (docs/whatif.md).",
      .html_grey_unfit = true,
      .html_order = 1,  // after the stragglers' section, as before issue 17
      .example = "{node_mtbf: 2000h, checkpoint: {storage: fsx, every: 30min}, restart: 10min, requeue: 5min, "
                 "monte_carlo: {trials: 50, seed: 2}}"};
  return view;
}

}  // namespace ddpsim::app
