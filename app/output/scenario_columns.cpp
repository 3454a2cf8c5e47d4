#include "app/output/scenario_columns.hpp"

#include <cmath>
#include <functional>
#include <set>

#include "app/output/time_units.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace ddpsim::app {
namespace {

using Result = sim::ConfigResult;
using Band = sim::ConfigResult::Band;

std::string pct(double v) { return fmt("%+.1f%%", std::abs(v) < 5e-4 ? 0.0 : v * 100); }  // no "-0.0%"

class Builder {
 public:
  Builder(const sim::ScenarioReport& rep, ScenarioColumns& out) : rep_(rep), out_(out) {}

  // A column of text cells.
  void text(const std::string& head, bool left, const std::function<std::string(const Result&)>& cell,
            const std::string& legend = "")
  {
    TableColumn c{head, left, {}};
    for (const Result& r : rep_.results) c.cells.push_back(cell(r));
    out_.columns.push_back(std::move(c));
    if (!legend.empty()) out_.legend.push_back(legend);
  }

  // A time column in one unit: `value` seconds or nullopt ("-"), with an optional band.
  void time(const std::string& head, const std::function<std::optional<double>(const Result&)>& value,
            const std::function<const Band*(const Result&)>& band = nullptr, const std::string& legend = "",
            const TimeUnit* unit = nullptr)
  {
    std::vector<double> all;
    for (const Result& r : rep_.results)
      if (auto v = value(r)) all.push_back(*v);
    const TimeUnit u = unit ? *unit : column_unit(all);
    text(head + " [" + u.name + "]", false, [&](const Result& r) -> std::string {
      const auto v = value(r);
      if (!v) return "-";
      const Band* b = band ? band(r) : nullptr;
      return b && b->set ? with_band(in_unit(*v, u), in_unit(b->p10, u), in_unit(b->p90, u)) : in_unit(*v, u);
    }, legend);
  }

  TimeUnit unit_of(const std::function<std::optional<double>(const Result&)>& value) const
  {
    std::vector<double> all;
    for (const Result& r : rep_.results)
      if (auto v = value(r)) all.push_back(*v);
    return column_unit(all);
  }

 private:
  const sim::ScenarioReport& rep_;
  ScenarioColumns& out_;
};

std::string label(const Result& r) { return r.compiler.empty() ? r.framework : r.framework + "+compiler"; }

}  // namespace

std::string with_band(const std::string& value, const std::string& low, const std::string& high)
{
  return low == high ? value : value + " (" + low + "-" + high + ")";
}

ScenarioColumns scenario_columns(const sim::ScenarioReport& rep, bool wide)
{
  ScenarioColumns out;
  Builder b(rep, out);
  std::set<std::string> instances, frameworks;
  std::set<int> per_node;
  bool observed = false, obs_step = false, obs_thr = false, uncal = false, roles = false, unfit = false;
  for (const Result& r : rep.results) {
    instances.insert(printable(r.instance));
    frameworks.insert(label(r));
    per_node.insert(r.nodes > 0 ? r.gpus / r.nodes : r.gpus);
    observed = observed || r.observed_minutes.has_value();
    obs_step = obs_step || r.observed_step_s.has_value();
    obs_thr = obs_thr || r.observed_samples_per_s.has_value();
    uncal = uncal || r.uncalibrated_total_s.has_value();
    roles = roles || !r.fit_role.empty();
    unfit = unfit || !r.fits;
  }
  const bool many_instances = wide || instances.size() > 1, many_frameworks = wide || frameworks.size() > 1;
  const bool show_gpus = wide || per_node.size() > 1;
  if (!rep.results.empty() && (!many_instances || !many_frameworks || !show_gpus)) {
    const Result& r = rep.results.front();
    if (!many_instances)
      out.context += "instance " + printable(r.instance) +
                     (show_gpus ? "" : " (" + std::to_string(*per_node.begin()) + " GPUs per node)");
    if (!many_frameworks) out.context += (out.context.empty() ? "" : ", ") + std::string("framework ") + label(r);
  }
  if (many_instances) b.text("instance", true, [](const Result& r) { return printable(r.instance); });
  if (many_frameworks) b.text("framework", true, label);
  b.text("nodes", false, [](const Result& r) { return std::to_string(r.nodes); });
  if (show_gpus) b.text("gpus", false, [](const Result& r) { return std::to_string(r.gpus); });
  const auto step = [](const Result& r) -> std::optional<double> { return r.step_time_s; };
  b.time("step", step, wide ? [](const Result& r) { return &r.step_band; } : std::function<const Band*(const Result&)>(),
         "step = one optimizer step per GPU" + std::string(wide ? " = compute + exposed + loader + optim" : ""));
  if (wide) {
    b.text("samples/s", false, [](const Result& r) {
      const Band& s = r.samples_band;
      return s.set ? with_band(fmt("%.0f", r.samples_per_s), fmt("%.0f", s.p10), fmt("%.0f", s.p90)) : fmt("%.0f", r.samples_per_s);
    });
    b.text("MFU", false, [](const Result& r) { return fmt("%.0f%%", r.mfu * 100); },
           "MFU = model FLOPs (forward + backward, no recomputation) per second over the GPUs' dense peak in the "
           "training precision");
    bool tokens = false;  // issue 19: tokens/s for sequence models
    for (const Result& r : rep.results) tokens = tokens || r.tokens_per_s > 0;
    if (tokens)
      b.text("tokens/s", false, [](const Result& r) { return r.tokens_per_s > 0 ? fmt("%.0f", r.tokens_per_s) : "-"; },
             "tokens/s = samples/s x tokens per sample");
    b.time("compute", [](const Result& r) -> std::optional<double> { return r.compute_s; }, nullptr,
           "compute = forward + backward (all micro-steps)");
    b.time("comm", [](const Result& r) -> std::optional<double> { return r.comm_s; }, nullptr,
           "comm = gradient reduction time per step, exposed = not hidden behind backward");
    b.time("exposed", [](const Result& r) -> std::optional<double> { return r.exposed_comm_s; });
    b.time("loader", [](const Result& r) -> std::optional<double> { return r.loader_wait_s; }, nullptr,
           "loader = waiting for input");
    b.time("optim", [](const Result& r) -> std::optional<double> { return r.optimizer_s + r.overhead_s; }, nullptr,
           "optim = optimizer + framework overhead");
  }
  b.text("bound", true, [wide](const Result& r) { return !wide && r.bound == "communication" ? std::string("comm") : r.bound; },
         std::string("bound = what dominates the step") + (wide ? "" : " (comm = communication)"));
  const auto total = [](const Result& r) -> std::optional<double> {
    return r.fits ? std::optional<double>(r.total_time_s) : std::nullopt;
  };
  const TimeUnit total_unit = b.unit_of([&](const Result& r) -> std::optional<double> {
    double least = r.total_time_s;
    if (r.observed_minutes) least = std::min(least, *r.observed_minutes * 60);
    if (r.uncalibrated_total_s) least = std::min(least, *r.uncalibrated_total_s);
    return least;
  });
  b.time("total", total, [](const Result& r) { return &r.total_band; }, "total = start-up + steps x step", &total_unit);
  b.text("speedup", false, [wide](const Result& r) {
    const Band& s = r.speedup_band;
    const std::string v = fmt("%.2fx", r.speedup);
    return wide && s.set ? with_band(v, fmt("%.2f", s.p10), fmt("%.2f", s.p90)) : v;
  }, "speedup against the first row of the same framework");
  if (wide)
    b.text("eff", false, [](const Result& r) { return fmt("%.0f%%", r.scaling_efficiency * 100); },
           "eff = scaling efficiency (speedup / node ratio)");
  b.text("cost [$]", false, [wide](const Result& r) {
    if (!r.fits) return std::string("-");
    const Band& s = r.cost_band;
    const std::string v = fmt("%.2f", r.cost_usd);
    return wide && s.set ? with_band(v, fmt("%.2f", s.p10), fmt("%.2f", s.p90)) : v;
  }, "cost = instances x hours x the hourly price below");
  if (wide)
    b.text("memory/GPU", false, [](const Result& r) {
      return fmt("%.1f GiB", static_cast<double>(r.memory.total().n) / static_cast<double>(GiB)) + (r.fits ? "" : " !");
    }, "memory/GPU = parameters + gradients + optimizer state + buckets + activations + CUDA/NCCL workspace (! = does not fit)");
  else if (unfit)
    b.text("fits", true, [](const Result& r) { return std::string(r.fits ? "yes" : "no"); },
           "fits = fits in GPU memory (a row that does not has no total or cost)");
  if (uncal)
    b.time("uncal.", [](const Result& r) { return r.uncalibrated_total_s; }, nullptr,
           "uncal. = total without the calibration", &total_unit);
  if (observed) {
    b.time("obs.", [](const Result& r) -> std::optional<double> {
      return r.observed_minutes ? std::optional<double>(*r.observed_minutes * 60) : std::nullopt;
    }, nullptr, "obs. = observed (measured) total", &total_unit);
    if (wide)
      b.text("obs.speedup", false, [&rep](const Result& r) {
        const Result& base = sim::block_base(rep.results, r);
        return r.observed_minutes && base.observed_minutes ? fmt("%.2fx", *base.observed_minutes / *r.observed_minutes)
                                                           : std::string("-");
      });
    b.text("error", false, [](const Result& r) {
      return r.observed_minutes && r.fits ? pct((r.total_time_s - *r.observed_minutes * 60) / (*r.observed_minutes * 60))
                                          : std::string("-");
    }, "error = (total - obs.) / obs.");
    if (uncal)
      b.text("uncal.error", false, [](const Result& r) {
        return r.observed_minutes && r.uncalibrated_total_s
                   ? pct((*r.uncalibrated_total_s - *r.observed_minutes * 60) / (*r.observed_minutes * 60))
                   : std::string("-");
      }, "uncal.error = the same for the uncalibrated total");
  }
  if (roles)
    b.text("fit", true, [](const Result& r) { return r.fit_role.empty() ? std::string("-") : r.fit_role; },
           "fit = the row the calibration was fitted on, or held back from the fit to check it");
  if (obs_step) {
    b.time("obs.step", [](const Result& r) { return r.observed_step_s; }, nullptr, "obs.step = measured step time",
           nullptr);
    b.text("step err", false, [](const Result& r) {
      return r.observed_step_s ? pct((r.step_time_s - *r.observed_step_s) / *r.observed_step_s) : std::string("-");
    }, "step err = (step - obs.step) / obs.step");
  }
  if (obs_thr) {
    b.text("obs.samples/s", false, [](const Result& r) {
      return r.observed_samples_per_s ? fmt("%.0f", *r.observed_samples_per_s) : std::string("-");
    }, "obs.samples/s = measured throughput");
    b.text("thr.err", false, [](const Result& r) {
      return r.observed_samples_per_s ? pct((r.samples_per_s - *r.observed_samples_per_s) / *r.observed_samples_per_s)
                                      : std::string("-");
    }, "thr.err = (predicted - observed) / observed samples/s");
  }
  return out;
}

}  // namespace ddpsim::app
