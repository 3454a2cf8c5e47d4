#include "app/output/scenario_columns.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "app/output/result_fields.hpp"
#include "app/output/time_units.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace ddpsim::app {
namespace {

using Result = sim::ConfigResult;
using Number = std::function<std::optional<double>(const Result&)>;
using Band = std::function<std::optional<std::pair<double, double>>(const Result&)>;

std::string pct(double v) { return fmt("%+.1f%%", std::abs(v) < 5e-4 ? 0.0 : v * 100); }  // no "-0.0%"

// A result field by name from the one list (result_fields.hpp): every value in the table is the
// value JSON and CSV carry, so a field is declared once.
class Field {
 public:
  explicit Field(std::string_view name) : f_(&result_field(name)) {}
  Json json(const Result& r) const { return f_->json(r); }
  bool has(const Result& r) const
  {
    const Json v = json(r);
    return !v.is_discarded() && !v.is_null();
  }
  std::optional<double> number(const Result& r) const
  {
    const Json v = json(r);
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
  }
  double operator()(const Result& r) const { return number(r).value_or(0); }
  std::string text(const Result& r) const
  {
    const Json v = json(r);
    return v.is_string() ? v.get<std::string>() : v.is_number() ? v.dump() : std::string();
  }

 private:
  const ResultField* f_;
};

Number number(std::string_view name) { return [f = Field(name)](const Result& r) { return f.number(r); }; }

// The [p10, p90] band of a field: its NAME_p10 and NAME_p90 fields, when the row has them.
Band band(const std::string& name)
{
  return [lo = Field(name + "_p10"), hi = Field(name + "_p90")](const Result& r) -> std::optional<std::pair<double, double>> {
    if (!lo.has(r) || !hi.has(r)) return std::nullopt;
    return std::pair(lo(r), hi(r));
  };
}

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
  void time(const std::string& head, const Number& value, const Band& bands = nullptr, const std::string& legend = "",
            const TimeUnit* unit = nullptr)
  {
    const TimeUnit u = unit ? *unit : unit_of(value);
    text(head + " [" + u.name + "]", false, [&](const Result& r) -> std::string {
      const auto v = value(r);
      if (!v) return "-";
      const auto b = bands ? bands(r) : std::nullopt;
      return b ? with_band(in_unit(*v, u), in_unit(b->first, u), in_unit(b->second, u)) : in_unit(*v, u);
    }, legend);
  }

  TimeUnit unit_of(const Number& value) const
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

// A number x `scale` with its band (when `wide` and the row has one) through one printf format.
std::function<std::string(const Result&)> banded(std::string_view name, const char* format, bool wide, const char* band_format,
                                                 double scale = 1)
{
  return [f = Field(name), b = band(std::string(name)), format, wide, band_format, scale](const Result& r) {
    const std::string v = fmt(format, f(r) * scale);
    const auto s = wide ? b(r) : std::nullopt;
    return s ? with_band(v, fmt(band_format, s->first * scale), fmt(band_format, s->second * scale)) : v;
  };
}

std::string label(const Result& r)
{
  static const Field framework("framework"), compiler("compiler");
  return framework.text(r) + (compiler.has(r) ? "+compiler" : "");
}

}  // namespace

std::string with_band(const std::string& value, const std::string& low, const std::string& high)
{
  return low == high ? value : value + " (" + low + "-" + high + ")";
}

ScenarioColumns scenario_columns(const sim::ScenarioReport& rep, bool wide)
{
  ScenarioColumns out;
  Builder b(rep, out);
  const Field instance("instance"), nodes("nodes"), gpus("gpus"), fits("fits"), obs_total("observed_total_time_s"),
      obs_step("observed_step_time_s"), obs_thr("observed_samples_per_s"), uncal_total("uncalibrated_total_time_s"),
      fit("fit"), total_time("total_time_s"), optimizer("optimizer_s"), overhead("overhead_s"), tokens("tokens_per_s"), startup("startup_s"), step("step_time_s"), steps("steps");
  auto any = [&](const Field& f) {
    return std::any_of(rep.results.begin(), rep.results.end(), [&](const Result& r) { return f.has(r); });
  };
  std::set<std::string> instances, frameworks;
  std::set<int> per_node;
  for (const Result& r : rep.results) {
    instances.insert(printable(instance.text(r)));
    frameworks.insert(label(r));
    const int n = static_cast<int>(nodes(r)), g = static_cast<int>(gpus(r));
    per_node.insert(n > 0 ? g / n : g);
  }
  const bool observed = any(obs_total), uncal = any(uncal_total), roles = any(fit);
  const bool unfit = std::any_of(rep.results.begin(), rep.results.end(), [&](const Result& r) { return !fits.json(r).get<bool>(); });
  const bool many_instances = wide || instances.size() > 1, many_frameworks = wide || frameworks.size() > 1;
  const bool show_gpus = wide || per_node.size() > 1;
  if (!rep.results.empty() && (!many_instances || !many_frameworks || !show_gpus)) {
    const Result& r = rep.results.front();
    if (!many_instances)
      out.context += "instance " + printable(instance.text(r)) +
                     (show_gpus ? "" : " (" + std::to_string(*per_node.begin()) + " GPUs per node)");
    if (!many_frameworks) out.context += (out.context.empty() ? "" : ", ") + std::string("framework ") + label(r);
  }
  if (many_instances) b.text("instance", true, [&](const Result& r) { return printable(instance.text(r)); });
  if (many_frameworks) b.text("framework", true, label);
  b.text("nodes", false, [&](const Result& r) { return nodes.text(r); });
  if (show_gpus) b.text("gpus", false, [&](const Result& r) { return gpus.text(r); });
  b.time("step", number("step_time_s"), wide ? band("step_time_s") : nullptr,
         "step = one optimizer step per GPU" + std::string(wide ? " = compute + exposed + loader + optim" : ""));
  if (wide) {
    b.text("samples/s", false, banded("samples_per_s", "%.0f", true, "%.0f"));
    b.text("MFU", false, [f = Field("mfu")](const Result& r) { return fmt("%.0f%%", f(r) * 100); },
           "MFU = model FLOPs (forward + backward, no recomputation) per second over the GPUs' dense peak in the "
           "training precision");
    // Issue 19: tokens/s for sequence models.
    if (std::any_of(rep.results.begin(), rep.results.end(), [&](const Result& r) { return tokens(r) > 0; }))
      b.text("tokens/s", false, [&](const Result& r) { return tokens(r) > 0 ? fmt("%.0f", tokens(r)) : "-"; },
             "tokens/s = samples/s x tokens per sample");
    b.time("compute", number("compute_s"), nullptr, "compute = forward + backward (all micro-steps)");
    b.time("comm", number("comm_s"), nullptr,
           "comm = gradient reduction time per step, exposed = not hidden behind backward");
    b.time("exposed", number("exposed_comm_s"));
    b.time("loader", number("loader_wait_s"), nullptr, "loader = waiting for input");
    b.time("optim", [&](const Result& r) -> std::optional<double> { return optimizer(r) + overhead(r); }, nullptr,
           "optim = optimizer + framework overhead");
  }
  b.text("bound", true, [wide, f = Field("bound")](const Result& r) {
    const std::string v = f.text(r);
    return !wide && v == "communication" ? std::string("comm") : v;
  }, std::string("bound = what dominates the step") + (wide ? "" : " (comm = communication)"));
  // One unit for the totals, the uncalibrated and the observed ones. A row that does not fit has
  // no total (null); the unit still counts the one it would take, start-up + steps x step.
  const TimeUnit total_unit = b.unit_of([&](const Result& r) -> std::optional<double> {
    double least = total_time.number(r).value_or(startup(r) + step(r) * steps(r));
    for (const Field* f : {&obs_total, &uncal_total})
      if (auto v = f->number(r)) least = std::min(least, *v);
    return least;
  });
  b.time("total", number("total_time_s"), band("total_time_s"), "total = start-up + steps x step", &total_unit);
  b.text("speedup", false, banded("speedup", "%.2fx", wide, "%.2f"), "speedup against the first row of the same framework");
  if (wide)
    b.text("eff", false, banded("scaling_efficiency", "%.0f%%", true, "%.0f", 100),
           "eff = scaling efficiency (speedup / GPU ratio), with the speedup's band");
  b.text("cost [$]", false, [&, cost = banded("cost_usd", "%.2f", wide, "%.2f")](const Result& r) {
    return fits.json(r).get<bool>() ? cost(r) : std::string("-");
  }, "cost = instances x hours x the hourly price below");
  if (wide)
    b.text("memory/GPU", false, [&, m = Field("memory_bytes")](const Result& r) {
      return fmt("%.1f GiB", m.json(r)["total"].get<double>() / static_cast<double>(GiB)) +
             (fits.json(r).get<bool>() ? "" : " !");
    }, "memory/GPU = parameters + gradients + optimizer state + buckets + activations + CUDA/NCCL workspace (! = does not fit)");
  else if (unfit)
    b.text("fits", true, [&](const Result& r) { return std::string(fits.json(r).get<bool>() ? "yes" : "no"); },
           "fits = fits in GPU memory (a row that does not has no total or cost)");
  if (uncal)
    b.time("uncal.", number("uncalibrated_total_time_s"), nullptr, "uncal. = total without the calibration", &total_unit);
  auto error = [](std::string_view name, const Field* need = nullptr) {
    return [f = Field(name), need](const Result& r) {
      return f.has(r) && (!need || need->json(r).get<bool>()) ? pct(f(r)) : std::string("-");
    };
  };
  if (observed) {
    b.time("obs.", number("observed_total_time_s"), nullptr, "obs. = observed (measured) total", &total_unit);
    if (wide)
      b.text("obs.speedup", false, [&](const Result& r) {
        const Result& base = sim::block_base(rep.results, r);
        return obs_total.has(r) && obs_total.has(base) ? fmt("%.2fx", obs_total(base) / obs_total(r)) : std::string("-");
      });
    b.text("error", false, error("error", &fits), "error = (total - obs.) / obs.");
    if (uncal) b.text("uncal.error", false, error("uncalibrated_error"), "uncal.error = the same for the uncalibrated total");
  }
  if (roles)
    b.text("fit", true, [&](const Result& r) { return fit.has(r) ? fit.text(r) : std::string("-"); },
           "fit = the row the calibration was fitted on, or held back from the fit to check it");
  if (any(obs_step)) {
    b.time("obs.step", number("observed_step_time_s"), nullptr, "obs.step = measured step time", nullptr);
    b.text("step err", false, error("step_time_error"), "step err = (step - obs.step) / obs.step");
  }
  if (any(obs_thr)) {
    b.text("obs.samples/s", false, [&](const Result& r) { return obs_thr.has(r) ? fmt("%.0f", obs_thr(r)) : std::string("-"); },
           "obs.samples/s = measured throughput");
    b.text("thr.err", false, error("samples_per_s_error"), "thr.err = (predicted - observed) / observed samples/s");
  }
  return out;
}

}  // namespace ddpsim::app
