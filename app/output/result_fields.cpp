#include "app/output/result_fields.hpp"

#include <algorithm>
#include <optional>

#include "app/output/text_format.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace ddpsim::app {
namespace {

using R = sim::ConfigResult;
const Json kAbsent(Json::value_t::discarded);

Json opt(const std::optional<double>& v) { return v ? Json(*v) : kAbsent; }
Json if_fits(const R& r, double v) { return r.fits ? Json(v) : Json(); }  // a row that does not fit cannot run: null
Json band(const R::Band& b, bool high) { return b.set ? Json(high ? b.p90 : b.p10) : kAbsent; }
// Scaling efficiency is the speedup over a fixed GPU ratio (sim/study/scenario.cpp), so its band is
// the speedup's, sampled with it, over the same ratio.
Json efficiency_band(const R& r, bool high)
{
  if (!r.speedup_band.set || r.speedup <= 0) return kAbsent;
  return Json((high ? r.speedup_band.p90 : r.speedup_band.p10) * r.scaling_efficiency / r.speedup);
}
std::string g(double v) { return fmt("%.9g", v); }
double rel(double predicted, double observed) { return (predicted - observed) / observed; }

// A CSV cell (RFC 4180): printable (one line, valid UTF-8), quoted when it holds a comma or quote.
std::string csv(const std::string& s)
{
  const std::string p = printable(s);
  if (p.find_first_of(",\"") == std::string::npos) return p;
  std::string out = "\"";
  for (char c : p) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string join(const std::vector<std::string>& v, const std::string& sep)
{
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : sep) + x;
  return out;
}

Json memory_json(const sim::MemoryBreakdown& m)
{
  return Json{{"parameters", m.parameters.n}, {"gradients", m.gradients.n}, {"optimizer", m.optimizer.n},
              {"buckets", m.buckets.n},       {"activations", m.activations.n}, {"workspace", m.workspace.n},
              {"total", m.total().n},         {"capacity", m.capacity.n}};
}

Json buckets_json(const R& r)
{
  Json out = Json::array();  // each gradient reduction as the CollectiveModel priced it, in launch order
  for (const sim::BucketResult& b : r.buckets)
    out.push_back({{"bytes", b.bytes}, {"algorithm", b.algorithm}, {"protocol", b.protocol}, {"channels", b.channels},
                   {"time_s", b.time_s()}, {"ready_s", b.ready_s}, {"start_s", b.start_s}});
  return out;
}

using G = CsvGroup;

std::vector<ResultField> base_fields()
{
  auto num = [](double R::*m) { return [m](const R& r) { return Json(r.*m); }; };
  return {
      {"instance", "", [](const R& r) { return Json(r.instance); }, 1},
      {"nodes", "", [](const R& r) { return Json(r.nodes); }, 2},
      {"gpus", "", [](const R& r) { return Json(r.gpus); }, 3},
      {"framework", "", [](const R& r) { return Json(r.framework); }, 4},
      {"backend", "", [](const R& r) { return Json(r.backend); }, 5},
      {"algorithm", "", [](const R& r) { return Json(r.algorithm); }, 6},
      {"step_time_s", "s", num(&R::step_time_s), 7},
      {"step_time_s_p10", "s", [](const R& r) { return band(r.step_band, false); }, 25},
      {"step_time_s_p90", "s", [](const R& r) { return band(r.step_band, true); }, 26},
      {"samples_per_s", "1/s", num(&R::samples_per_s), 8},
      {"samples_per_s_p10", "1/s", [](const R& r) { return band(r.samples_band, false); }, 27},
      {"samples_per_s_p90", "1/s", [](const R& r) { return band(r.samples_band, true); }, 28},
      {"mfu", "1", num(&R::mfu), 36},                    // issue 19
      {"tokens_per_s", "1/s", num(&R::tokens_per_s), 37},  // 0: not a sequence model
      {"steps", "", [](const R& r) { return Json(r.steps); }, 9},
      {"total_time_s", "s", [](const R& r) { return if_fits(r, r.total_time_s); }, 10},
      {"total_time_s_p10", "s", [](const R& r) { return band(r.total_band, false); }, 29},
      {"total_time_s_p90", "s", [](const R& r) { return band(r.total_band, true); }, 30},
      {"speedup", "1", num(&R::speedup), 11},
      {"speedup_p10", "1", [](const R& r) { return band(r.speedup_band, false); }, 31},
      {"speedup_p90", "1", [](const R& r) { return band(r.speedup_band, true); }, 32},
      {"scaling_efficiency", "1", num(&R::scaling_efficiency), 12},
      {"scaling_efficiency_p10", "1", [](const R& r) { return efficiency_band(r, false); }, 32},
      {"scaling_efficiency_p90", "1", [](const R& r) { return efficiency_band(r, true); }, 32},
      {"compute_s", "s", num(&R::compute_s), 13},
      {"comm_s", "s", num(&R::comm_s), 14},
      {"exposed_comm_s", "s", num(&R::exposed_comm_s), 15},
      {"optimizer_s", "s", num(&R::optimizer_s), 16},
      {"loader_wait_s", "s", num(&R::loader_wait_s), 17},
      {"overhead_s", "s", num(&R::overhead_s)},
      {"interference_s", "s", num(&R::interference_s)},  // issue 9: sim/step/overheads.hpp
      {"bucket_copy_s", "s", num(&R::bucket_copy_s)},
      {"launch_s", "s", num(&R::launch_s)},
      {"negotiation_s", "s", num(&R::negotiation_s)},
      {"grad_accum_steps", "", [](const R& r) { return Json(r.grad_accum_steps); }},
      {"startup_s", "s", num(&R::startup_s)},
      {"price_usd_per_hour", "USD/h", num(&R::price_usd_per_hour)},
      {"bound", "", [](const R& r) { return Json(r.bound); }, 18},
      {"bucket_bytes", "B", [](const R& r) { return Json(r.bucket_bytes); }},
      {"buckets", "", buckets_json, 19, [](const R& r) { return std::to_string(r.bucket_bytes.size()); }},
      {"cost_usd", "USD", [](const R& r) { return if_fits(r, r.cost_usd); }, 20},
      {"cost_usd_p10", "USD", [](const R& r) { return band(r.cost_band, false); }, 33},
      {"cost_usd_p90", "USD", [](const R& r) { return band(r.cost_band, true); }, 34},
      {"fits", "", [](const R& r) { return Json(r.fits); }, 22},
      {"memory", "", [](const R& r) { return Json(fit_note(r)); }},
      {"memory_bytes", "B", [](const R& r) { return memory_json(r.memory); }},
      {"memory_gib", "GiB", nullptr, 23,
       [](const R& r) { return g(static_cast<double>(r.memory.total().n) / static_cast<double>(GiB)); }},
      {"gather_s", "s", [](const R& r) { return r.gather_s > 0 ? Json(r.gather_s) : kAbsent; }},
      {"uncalibrated_step_time_s", "s", [](const R& r) { return opt(r.uncalibrated_step_s); }},
      {"uncalibrated_total_time_s", "s", [](const R& r) { return opt(r.uncalibrated_total_s); }, 35},
      {"warnings", "", [](const R& r) { return Json(r.warnings); }, 24,
       [](const R& r) {
         const std::string w = join(r.warnings, "; ");
         return csv_quote(r.fits ? w : w + (w.empty() ? "" : "; ") + fit_note(r));
       }},
      {"observed_total_time_s", "s",
       [](const R& r) { return r.observed_minutes ? Json(*r.observed_minutes * 60) : kAbsent; }, 21},
      {"error", "1",
       [](const R& r) { return r.observed_minutes ? Json(rel(r.total_time_s, *r.observed_minutes * 60)) : kAbsent; }},
      {"observed_step_time_s", "s", [](const R& r) { return opt(r.observed_step_s); }, 42, nullptr, G::observed},  // issue 20
      {"step_time_error", "1",
       [](const R& r) { return r.observed_step_s ? Json(rel(r.step_time_s, *r.observed_step_s)) : kAbsent; }},
      {"observed_samples_per_s", "1/s", [](const R& r) { return opt(r.observed_samples_per_s); }, 43, nullptr, G::observed},
      {"samples_per_s_error", "1",
       [](const R& r) { return r.observed_samples_per_s ? Json(rel(r.samples_per_s, *r.observed_samples_per_s)) : kAbsent; }},
      {"uncalibrated_error", "1",
       [](const R& r) {
         return r.observed_minutes && r.uncalibrated_total_s ? Json(rel(*r.uncalibrated_total_s, *r.observed_minutes * 60)) : kAbsent;
       }},
      {"fit", "", [](const R& r) { return r.fit_role.empty() ? kAbsent : Json(r.fit_role); }, 44,
       [](const R& r) { return r.fit_role; }, G::observed},
      {"simulated", "", [](const R& r) { return r.simulated.empty() ? kAbsent : Json(r.simulated); }},
      {"degraded", "", [](const R& r) { return r.degraded.empty() ? kAbsent : Json(r.degraded); }, 40,
       [](const R& r) { return "\"" + join(r.degraded, "; ") + "\""; }, G::degraded},
      {"compiler", "",
       [](const R& r) {
         return r.compiler.empty() ? kAbsent
                                   : Json{{"name", r.compiler}, {"compute_scale", r.compiler_compute_scale},
                                          {"memory_scale", r.compiler_memory_scale}};
       },
       41, [](const R& r) { return r.compiler; }, G::compiler},
  };
}

// The CSV cell of a JSON value: numbers %.9g (integers as they are), text RFC 4180, null empty.
std::string cell_of(const Json& v)
{
  if (v.is_discarded() || v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return g(v.get<double>());
  if (v.is_number()) return v.dump();
  if (v.is_string()) return csv(v.get<std::string>());
  DDPSIM_CHECK(false, "a CSV column holds a JSON array or object");
  return "";
}

bool in_group(const R& r, const ResultField& f)
{
  switch (f.group) {
    case G::whatif: return r.whatif(f.whatif) != nullptr;
    case G::base: return true;
    case G::degraded: return !r.degraded.empty();
    case G::compiler: return !r.compiler.empty();
    case G::observed: return r.observed_step_s || r.observed_samples_per_s || !r.fit_role.empty();
  }
  return false;
}

}  // namespace

const std::vector<ResultField>& result_fields()
{
  static const std::vector<ResultField> fields = [] {
    std::vector<ResultField> all = base_fields();
    add_whatif_fields(all);
    return all;
  }();
  return fields;
}

const ResultField& result_field(std::string_view name)
{
  const auto& all = result_fields();
  const auto f = std::find_if(all.begin(), all.end(), [&](const ResultField& x) { return x.name == name; });
  DDPSIM_CHECK(f != all.end(), "no result field " + std::string(name));
  return *f;
}

std::string fit_note(const sim::ConfigResult& r)
{
  return (r.fits ? "fits: " : "does not fit: ") + sim::memory_need(r.memory);
}

Json result_json(const sim::ConfigResult& r)
{
  Json o = Json::object();
  for (const ResultField& f : result_fields())
    if (f.json)
      if (Json v = f.json(r); !v.is_discarded()) o[f.name] = std::move(v);
  return o;
}

void put_result_fields(Json& o, const sim::ConfigResult& r, std::initializer_list<std::string_view> names)
{
  for (std::string_view name : names) {
    const ResultField& f = result_field(name);
    DDPSIM_CHECK(f.json != nullptr, "no JSON result field " + std::string(name));
    if (Json v = f.json(r); !v.is_discarded()) o[f.name] = std::move(v);
  }
}

std::string results_csv(const std::vector<sim::ConfigResult>& rows)
{
  std::vector<const ResultField*> cols;
  for (const ResultField& f : result_fields())
    if (f.csv > 0 && (f.group == G::base || std::any_of(rows.begin(), rows.end(), [&](const R& r) { return in_group(r, f); })))
      cols.push_back(&f);
  std::stable_sort(cols.begin(), cols.end(), [](const ResultField* a, const ResultField* b) { return a->csv < b->csv; });
  std::string out;
  for (const ResultField* f : cols) out += (out.empty() ? "" : ",") + f->name;
  out += "\n";
  for (const R& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      out += (i ? "," : "") + (cols[i]->cell ? cols[i]->cell(r) : cell_of(cols[i]->json(r)));
    out += "\n";
  }
  return out;
}

}  // namespace ddpsim::app
