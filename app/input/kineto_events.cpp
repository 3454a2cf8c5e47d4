#include "app/input/kineto_events.hpp"

#include <cmath>
#include <map>

#include "app/input/trace_file.hpp"
#include "calibrate/trace_model.hpp"
#include "core/error.hpp"

namespace ddpsim::app {
namespace {

using nlohmann::json;
using calibrate::KinetoTrace;
using calibrate::SpanKind;
using calibrate::TraceFlow;
using calibrate::TraceSpan;

struct Ctx {
  const std::string& file;
  std::size_t index;
  [[noreturn]] void fail(const std::string& field, const std::string& why) const
  {
    throw UserError(SourceLocation{file, 0, 0}, "traceEvents[" + std::to_string(index) + "]" + (field.empty() ? "" : "." + field), why);
  }
};

double number(const json& e, const char* key, const Ctx& c)
{
  const auto it = e.find(key);
  if (it == e.end()) c.fail(key, "missing");
  if (!it->is_number()) c.fail(key, "expected a number");
  const double v = it->get<double>();
  if (!std::isfinite(v) || std::fabs(v) > 1e17) c.fail(key, "out of range");
  return v;
}

std::string id_text(const json& v)
{
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  return v.dump();
}

std::int64_t integer_arg(const json& args, const char* key, const Ctx& c, std::int64_t fallback)
{
  const auto it = args.find(key);
  if (it == args.end()) return fallback;
  if (!it->is_number_integer()) c.fail(std::string("args.") + key, "expected an integer");
  return it->get<std::int64_t>();
}

const std::map<std::string, SpanKind>& kinds()
{
  static const std::map<std::string, SpanKind> k{
      {"cpu_op", SpanKind::cpu_op},         {"user_annotation", SpanKind::annotation},
      {"cuda_runtime", SpanKind::launch},   {"cuda_driver", SpanKind::launch},
      {"kernel", SpanKind::kernel},         {"gpu_memcpy", SpanKind::kernel},
      {"gpu_memset", SpanKind::kernel}};
  return k;
}

// The legacy profiler writes record_function annotations as plain events: known by their names.
SpanKind legacy_kind(const json& e)
{
  const auto n = e.find("name");
  if (n == e.end() || !n->is_string()) return SpanKind::cpu_op;  // read_span says what is wrong
  const std::string& s = n->get_ref<const std::string&>();
  for (const char* p : {"ProfilerStep#", "Optimizer.", "DistributedDataParallel.", "enumerate(DataLoader)", "## ", "gloo:", "nccl:"})
    if (s.rfind(p, 0) == 0) return SpanKind::annotation;
  return SpanKind::cpu_op;
}

void read_span(const json& e, SpanKind kind, const Ctx& c, KinetoTrace& out)
{
  TraceSpan s;
  s.kind = kind;
  s.index = c.index;
  const auto name = e.find("name");
  if (name == e.end() || !name->is_string()) c.fail("name", "missing or not a string");
  s.name = name->get<std::string>();
  s.ts = number(e, "ts", c);
  s.dur = number(e, "dur", c);
  if (s.dur < 0) c.fail("dur", "negative duration");
  s.tid = id_text(e.value("pid", json())) + "/" + id_text(e.value("tid", json()));
  const json args = e.value("args", json::object());
  if (!args.is_object()) c.fail("args", "expected an object");
  if (kind == SpanKind::launch || kind == SpanKind::kernel) s.correlation = integer_arg(args, "correlation", c, -1);
  if (s.name == "record_param_comms") {
    const auto coll = args.find("Collective name");
    if (coll != args.end() && coll->is_string()) s.collective = coll->get<std::string>();
    const auto dt = args.find("dtype");
    if (dt != args.end() && dt->is_string()) s.dtype = dt->get<std::string>();
    const std::int64_t n = integer_arg(args, "In msg nelems", c, 0);
    if (n < 0) c.fail("args.In msg nelems", "negative element count");
    s.nelems = static_cast<std::uint64_t>(n);
  }
  out.spans.push_back(std::move(s));
}

void read_header(const json& doc, KinetoTrace& out)
{
  const std::string& f = out.file;
  if (const auto d = doc.find("distributedInfo"); d != doc.end() && d->is_object()) {
    const auto ws = d->find("world_size");
    if (ws != d->end()) {
      if (!ws->is_number_integer() || ws->get<std::int64_t>() < 1 || ws->get<std::int64_t>() > (1 << 24))
        throw UserError(SourceLocation{f, 0, 0}, "distributedInfo.world_size", "expected a positive integer");
      out.world_size = static_cast<int>(ws->get<std::int64_t>());
      out.world_known = true;
    }
    if (const auto b = d->find("backend"); b != d->end() && b->is_string()) out.backend = b->get<std::string>();
  }
  if (const auto p = doc.find("deviceProperties"); p != doc.end() && p->is_array() && !p->empty()) {
    const json& d0 = p->front();
    if (!d0.is_object() || !d0.contains("name") || !d0["name"].is_string())
      throw UserError(SourceLocation{f, 0, 0}, "deviceProperties[0].name", "missing or not a string");
    out.device = d0["name"].get<std::string>();
    if (const auto m = d0.find("totalGlobalMem"); m != d0.end() && m->is_number_unsigned()) out.device_memory = m->get<std::uint64_t>();
  }
}

}  // namespace

KinetoTrace parse_kineto(const nlohmann::json& doc, const std::string& file)
{
  KinetoTrace out;
  out.file = file;
  // The JSON Object Format (Kineto), or the JSON Array Format of the legacy profiler (PyTorch
  // built without Kineto, e.g. Debian's 1.13): a bare list of events without categories.
  const json* events = &doc;
  if (doc.is_object()) {
    const auto it = doc.find("traceEvents");
    if (it == doc.end() || !it->is_array())
      throw UserError(SourceLocation{file, 0, 0}, "traceEvents", "missing or not a list: not a PyTorch profiler trace");
    events = &*it;
    read_header(doc, out);
  } else if (!doc.is_array()) {
    throw UserError(SourceLocation{file, 0, 0}, "", "not a PyTorch profiler trace: expected a JSON object or list");
  }
  for (std::size_t i = 0; i < events->size(); ++i) {
    const json& e = (*events)[i];
    const Ctx c{file, i};
    if (!e.is_object()) c.fail("", "expected an object");
    const auto ph = e.find("ph");
    const auto cat = e.find("cat");
    if (ph == e.end() || !ph->is_string()) continue;  // metadata without a phase: not ours
    const std::string p = ph->get<std::string>();
    const std::string k = cat != e.end() && cat->is_string() ? cat->get<std::string>() : "";
    if (p == "X" && cat == e.end()) {
      read_span(e, legacy_kind(e), c, out);
    } else if (p == "X") {
      if (const auto it = kinds().find(k); it != kinds().end()) read_span(e, it->second, c, out);
    } else if ((p == "s" || p == "f") && (k == "ac2g" || k == "fwdbwd")) {
      TraceFlow fl;
      fl.start = p == "s";
      fl.fwdbwd = k == "fwdbwd";
      const auto id = e.find("id");
      if (id == e.end() || !id->is_number_integer()) c.fail("id", "missing or not an integer");
      fl.id = id->get<std::int64_t>();
      fl.ts = number(e, "ts", c);
      fl.tid = id_text(e.value("pid", json())) + "/" + id_text(e.value("tid", json()));
      out.flows.push_back(std::move(fl));
    }
  }
  return out;
}

std::shared_ptr<const sim::TracedModel> import_trace(const std::string& file, const std::map<std::string, GpuSpec>& gpus,
                                                     const std::string& gpu_name)
{
  return std::make_shared<const sim::TracedModel>(calibrate::import_kineto(parse_kineto(read_trace_json(file), file), gpus, gpu_name));
}

}  // namespace ddpsim::app
