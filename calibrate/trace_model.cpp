#include "calibrate/trace_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "calibrate/trace_steps.hpp"
#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

double median(std::vector<double> v)
{
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Time us(double v) { return Time::from_us(v); }

// The same operators and buckets in every step: per-layer medians are meaningful.
bool alike(const std::vector<StepParts>& steps)
{
  for (const StepParts& s : steps) {
    if (s.layers.size() != steps[0].layers.size() || s.buckets.size() != steps[0].buckets.size()) return false;
    for (std::size_t i = 0; i < s.layers.size(); ++i)
      if (s.layers[i].name != steps[0].layers[i].name) return false;
    for (std::size_t i = 0; i < s.buckets.size(); ++i)
      if (s.buckets[i].elements != steps[0].buckets[i].elements) return false;
  }
  return true;
}

std::string ms(double micro)
{
  char b[32];
  std::snprintf(b, sizeof b, "%.2f ms", micro / 1e3);
  return b;
}

}  // namespace

std::string match_gpu(const std::string& device, std::uint64_t memory, const std::map<std::string, GpuSpec>& gpus)
{
  std::string name = device.rfind("NVIDIA ", 0) == 0 ? device.substr(7) : device;
  if (gpus.count(name)) return name;
  std::string best;
  double gap = 1e300;
  for (const auto& [g, spec] : gpus) {
    const std::string family = g.substr(0, g.find('-'));
    const std::size_t at = name.find(family);
    if (family.empty() || at == std::string::npos) continue;
    const std::size_t after = at + family.size();  // "A100" must not match "A1000"
    if (after < name.size() && std::isalnum(static_cast<unsigned char>(name[after]))) continue;
    const double d = memory ? std::fabs(spec.memory.as_double() - static_cast<double>(memory)) : 0;
    if (d < gap) gap = d, best = g;
  }
  return best;
}

sim::TracedModel import_kineto(const KinetoTrace& trace, const std::map<std::string, GpuSpec>& gpus, const std::string& gpu_name)
{
  std::vector<StepParts> steps = split_steps(trace);
  sim::TracedModel t;
  t.source = trace.file;
  t.steps = steps.size();
  t.ranks = trace.world_size;
  t.device = trace.device;
  std::vector<double> spans;
  for (const StepParts& s : steps) spans.push_back(s.step_us);
  const double step = median(spans);
  // The step whose span is the median (the lower middle one for an even count) gives the
  // structure; per-field medians over all steps when they all ran the same operators.
  std::vector<std::size_t> order(steps.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return steps[a].step_us < steps[b].step_us; });
  const StepParts& mid = steps[order[(order.size() - 1) / 2]];
  const bool all = alike(steps);
  const std::vector<StepParts> use = all ? steps : std::vector<StepParts>{mid};
  auto med = [&](auto field) {
    std::vector<double> v;
    for (const StepParts& s : use) v.push_back(field(s));
    return median(v);
  };
  double parts = 0;
  for (std::size_t i = 0; i < mid.layers.size(); ++i) {
    sim::TracedLayer l{mid.layers[i].name, us(med([&](const StepParts& s) { return s.layers[i].forward_us; })),
                       us(med([&](const StepParts& s) { return s.layers[i].backward_us; })),
                       us(med([&](const StepParts& s) { return s.layers[i].forward_gpu_us; })),
                       us(med([&](const StepParts& s) { return s.layers[i].backward_gpu_us; }))};
    parts += (l.forward + l.backward).us();
    t.layers.push_back(std::move(l));
  }
  for (std::size_t i = 0; i < mid.buckets.size(); ++i) {
    const StepBucket& b = mid.buckets[i];
    const int bytes = dtype_bytes(b.dtype);
    if (bytes == 0)
      throw UserError(SourceLocation{trace.file, 0, 0}, "traceEvents[" + std::to_string(b.index) + "].args.dtype",
                      "unknown dtype \"" + b.dtype + "\" of a reduction (record_param_comms)");
    t.buckets.push_back(sim::TracedBucket{b.elements, bytes, b.dtype, b.collective, b.layer,
                                          us(med([&](const StepParts& s) { return s.buckets[i].kernel_us; }))});
  }
  t.optimizer = us(med([](const StepParts& s) { return s.optimizer_us; }));
  t.optimizer_gpu = us(med([](const StepParts& s) { return s.optimizer_gpu_us; }));
  t.input_wait = us(med([](const StepParts& s) { return s.input_us; }));
  t.exposed_comm = us(med([](const StepParts& s) { return s.exposed_comm_us; }));
  t.step = us(step);
  parts += t.optimizer.us() + t.input_wait.us() + t.exposed_comm.us();
  // A sum of medians is not the median of sums: in a real 2-rank CPU run whose three steps were
  // disturbed in different places, the per-field medians added up to 7.7% more than the median
  // step (tests/cli/torch_trace.sh), and the prediction at the traced size came out that much
  // longer. When they add up to more than the median step's own parts, they are scaled down
  // together to that sum (each keeps its share); when they add up to less, `other` takes the
  // rest, as it always did, and no part is inflated by a stall that only the median step had.
  double mid_parts = mid.optimizer_us + mid.input_us + mid.exposed_comm_us;
  for (const auto& l : mid.layers) mid_parts += l.forward_us + l.backward_us;
  if (parts > mid_parts + 1e-3) {  // 1 ns: beyond the picosecond rounding of the parts
    const double shrink = mid_parts / parts;
    auto scale = [shrink](Time& v) { v = us(v.us() * shrink); };
    for (sim::TracedLayer& l : t.layers) scale(l.forward), scale(l.backward), scale(l.forward_gpu), scale(l.backward_gpu);
    scale(t.optimizer), scale(t.optimizer_gpu), scale(t.input_wait), scale(t.exposed_comm);
    parts = mid_parts;
  }
  t.other = us(std::max(0.0, step - parts));
  t.cpu_only = !mid.gpu;
  // The GPU.
  const std::string gpu = !gpu_name.empty() ? gpu_name : match_gpu(trace.device, trace.device_memory, gpus);
  if (const auto it = gpus.find(gpu); it != gpus.end()) t.gpu = it->second;
  // What the import did, for the report.
  // The file's name only: a report must not depend on where the scenario was run from.
  std::string head = "model.trace " + std::filesystem::path(trace.file).filename().string() + ": " +
                     (trace.world_known ? std::to_string(t.ranks) + " rank" + (t.ranks > 1 ? "s" : "") : "rank count not recorded");
  head += t.cpu_only ? ", CPU only (no GPU kernels: operator CPU times are the compute)"
                     : " on " + trace.device + (t.gpu ? " (catalog " + t.gpu->name + ")" : " (not in the catalog: no GPU scaling)");
  head += "; median step " + ms(step) + " of " + std::to_string(t.steps) + (steps.size() == 1 && steps[0].name == "whole trace" ? " (no ProfilerStep markers: the whole trace)" : " ProfilerSteps");
  t.notes.push_back(head);
  // Steps that ran the same operators and differ by more than 10% from their median were
  // disturbed (another process, a preempted rank, a data-loader stall): steps of one job repeat
  // within a few percent. Said, because the model rests on a few of them. Steps that ran different
  // operators (gradient accumulation's steps without a reduction) differ by design: not said.
  if (all && spans.size() > 1) {
    const auto [lo, hi] = std::minmax_element(spans.begin(), spans.end());
    if (step > 0 && (*hi > 1.1 * step || *lo < 0.9 * step))
      t.notes.push_back("model.trace: the steps ran " + ms(*lo) + " to " + ms(*hi) + " around their median " + ms(step) +
                        ": a disturbed run; the median step is the measurement, and a trace of more steps gives a steadier one");
  }
  double f = 0, b = 0;
  for (const sim::TracedLayer& l : t.layers) f += l.forward.us(), b += l.backward.us();
  t.notes.push_back("model.trace: " + std::to_string(t.layers.size()) + " layers (top-level operators), forward " + ms(f) +
                    ", backward " + ms(b) + ", optimizer " + ms(t.optimizer.us()) + ", input wait " + ms(t.input_wait.us()) +
                    ", exposed communication " + ms(t.exposed_comm.us()) + ", other " + ms(t.other.us()) + "; " +
                    std::to_string(t.buckets.size()) + " buckets as traced");
  if (!t.buckets.empty()) {
    std::string k;
    for (const sim::TracedBucket& tb : t.buckets) k += (k.empty() ? "" : ", ") + ms(tb.kernel.us());
    if (!t.cpu_only)
      t.notes.push_back("model.trace: traced NCCL kernels per bucket " + k +
                        " (they include waiting for the slower rank); the simulator prices the reductions itself");
  }
  if (mid.unsized > 0)
    t.notes.push_back("model.trace: " + std::to_string(mid.unsized) +
                      " reductions per step without an element count (no record_param_comms sizes: a PyTorch without "
                      "Kineto writes none); their buckets are unknown, so no communication is simulated and the measured "
                      "step keeps its own");
  if (!mid.linked)
    t.notes.push_back("model.trace: no fwdbwd flows tie backward operators to forward ones; the forward is one block in the first layer");
  if (!all) t.notes.push_back("model.trace: steps ran different operators; the median step's times are used");
  if (step > 0 && parts > step * 1.01)
    t.notes.push_back("model.trace: the parts add up to " + ms(parts) +
                      ", more than the median step: work ran past the step's end (GPU-bound); the prediction will be longer");
  if (mid.unattributed_kernels > 0)
    t.notes.push_back("model.trace: " + std::to_string(mid.unattributed_kernels) + " kernels without a launch to tie them to an operator were left out");
  return t;
}

int dtype_bytes(const std::string& dtype)
{
  static const std::map<std::string, int> b{{"Float", 4}, {"Half", 2}, {"BFloat16", 2}, {"Double", 8},
                                             {"Long", 8},  {"Int", 4},  {"Short", 2},    {"Byte", 1},
                                             {"Char", 1},  {"Bool", 1}, {"ComplexFloat", 8}};
  const auto it = b.find(dtype);
  return it == b.end() ? 0 : it->second;
}

}  // namespace ddpsim::calibrate
