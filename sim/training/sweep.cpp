#include "sim/training/sweep.hpp"

#include <cstring>
#include <deque>
#include <type_traits>

#include "core/error.hpp"
#include "sim/network/subprocess.hpp"

namespace ddpsim::sim {
namespace {

class Writer {
 public:
  template <class T>
  requires std::is_arithmetic_v<T> void put(T v)
  {
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put(const std::string& s)
  {
    put(static_cast<std::uint64_t>(s.size()));
    out_ += s;
  }
  void put(Time t) { put(t.ps); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  template <class T>
  requires std::is_arithmetic_v<T> T get()
  {
    T v{};
    need(sizeof v);
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string str()
  {
    const auto n = static_cast<std::size_t>(get<std::uint64_t>());
    need(n);
    std::string s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  Time time() { return Time{get<std::int64_t>()}; }
  bool done() const { return pos_ == in_.size(); }

 private:
  void need(std::size_t n) const { DDPSIM_CHECK(pos_ + n <= in_.size(), "truncated result from a sweep process"); }
  const std::string& in_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string encode(const ConfigResult& r, const Timeline* timeline)
{
  Writer w;
  w.put(r.instance);
  w.put(r.nodes);
  w.put(r.gpus);
  w.put(r.framework);
  w.put(r.backend);
  w.put(r.algorithm);
  for (double d : {r.step_time_s, r.samples_per_s, r.total_time_s, r.speedup, r.scaling_efficiency, r.compute_s, r.comm_s,
                   r.exposed_comm_s, r.optimizer_s, r.loader_wait_s, r.cost_usd, r.overhead_s, r.startup_s,
                   r.price_usd_per_hour})
    w.put(d);
  w.put(r.grad_accum_steps);
  w.put(static_cast<std::uint64_t>(r.warnings.size()));
  for (const std::string& warning : r.warnings) w.put(warning);
  w.put(r.steps);
  w.put(r.bound);
  w.put(static_cast<std::uint64_t>(r.bucket_bytes.size()));
  for (std::uint64_t b : r.bucket_bytes) w.put(b);
  w.put(r.observed_minutes.has_value());
  w.put(r.observed_minutes.value_or(0.0));
  w.put(r.simulated);
  w.put(r.stragglers.has_value());  // issue 12
  if (const auto& x = r.stragglers) {
    w.put(x->ranks);
    w.put(x->steps);
    w.put(static_cast<std::uint64_t>(x->step_s.size()));
    for (double d : x->step_s) w.put(d);
    for (double d : {x->nominal_step_s, x->step_mean_s, x->step_p50_s, x->step_p99_s, x->slowdown, x->sync_wait_mean_s,
                     x->sync_wait_max_s})
      w.put(d);
  }
  const std::size_t spans = timeline ? timeline->spans.size() : 0;
  w.put(static_cast<std::uint64_t>(spans));
  for (std::size_t i = 0; i < spans; ++i) {
    const Span& s = timeline->spans[i];
    w.put(s.process);
    w.put(s.track);
    w.put(s.name);
    w.put(s.start);
    w.put(s.end);
    w.put(static_cast<std::uint64_t>(s.args.size()));
    for (const auto& [k, v] : s.args) {
      w.put(k);
      w.put(v);
    }
  }
  return w.take();
}

ConfigResult decode(const std::string& bytes, Timeline* timeline)
{
  Reader rd(bytes);
  ConfigResult r;
  r.instance = rd.str();
  r.nodes = rd.get<int>();
  r.gpus = rd.get<int>();
  r.framework = rd.str();
  r.backend = rd.str();
  r.algorithm = rd.str();
  for (double* d : {&r.step_time_s, &r.samples_per_s, &r.total_time_s, &r.speedup, &r.scaling_efficiency, &r.compute_s,
                    &r.comm_s, &r.exposed_comm_s, &r.optimizer_s, &r.loader_wait_s, &r.cost_usd, &r.overhead_s,
                    &r.startup_s, &r.price_usd_per_hour})
    *d = rd.get<double>();
  r.grad_accum_steps = rd.get<int>();
  r.warnings.resize(rd.get<std::uint64_t>());
  for (std::string& warning : r.warnings) warning = rd.str();
  r.steps = rd.get<std::uint64_t>();
  r.bound = rd.str();
  r.bucket_bytes.resize(rd.get<std::uint64_t>());
  for (std::uint64_t& b : r.bucket_bytes) b = rd.get<std::uint64_t>();
  const bool observed = rd.get<bool>();
  const double minutes = rd.get<double>();
  if (observed) r.observed_minutes = minutes;
  r.simulated = rd.str();
  if (rd.get<bool>()) {  // issue 12
    StragglerResult& x = r.stragglers.emplace();
    x.ranks = rd.get<int>();
    x.steps = rd.get<int>();
    x.step_s.resize(rd.get<std::uint64_t>());
    for (double& d : x.step_s) d = rd.get<double>();
    for (double* d : {&x.nominal_step_s, &x.step_mean_s, &x.step_p50_s, &x.step_p99_s, &x.slowdown, &x.sync_wait_mean_s,
                      &x.sync_wait_max_s})
      *d = rd.get<double>();
  }
  const auto spans = rd.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < spans; ++i) {
    Span s;
    s.process = rd.str();
    s.track = rd.str();
    s.name = rd.str();
    s.start = rd.time();
    s.end = rd.time();
    s.args.resize(rd.get<std::uint64_t>());
    for (auto& [k, v] : s.args) {
      k = rd.str();
      v = rd.str();
    }
    if (timeline) timeline->add(std::move(s));
  }
  DDPSIM_CHECK(rd.done(), "trailing bytes in a sweep result");
  return r;
}

std::vector<ConfigResult> fan_out(std::size_t n, int jobs, const std::function<ConfigResult(std::size_t, Timeline*)>& work,
                                  const std::vector<Timeline*>& timelines)
{
  DDPSIM_CHECK(jobs >= 1 && timelines.size() == n, "fan_out arguments");
  std::vector<ConfigResult> out;
  out.reserve(n);
  std::deque<ChildProcess> running;
  std::size_t next = 0;
  auto start = [&](std::size_t i) {
    running.emplace_back([&work, &timelines, i] {
      Timeline local;
      ConfigResult r = work(i, timelines[i] ? &local : nullptr);
      return encode(r, timelines[i] ? &local : nullptr);
    });
  };
  while (out.size() < n) {
    while (next < n && running.size() < static_cast<std::size_t>(jobs)) start(next++);
    // Collect in order: the oldest child holds the next result.
    const std::size_t i = out.size();
    out.push_back(decode(running.front().collect(), timelines[i]));
    running.pop_front();
  }
  return out;
}

}  // namespace ddpsim::sim
