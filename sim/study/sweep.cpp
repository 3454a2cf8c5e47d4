#include "sim/study/sweep.hpp"

#include <cstring>
#include <list>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "sim/study/row_fields.hpp"

namespace ddpsim::sim {
namespace {

// A byte codec with one overload per field type; encode and decode walk the same field list
// (the fields() functions, row_fields.hpp), so a new result field is one line there.
class Writer {
 public:
  template <class T>
  requires std::is_arithmetic_v<T> void operator()(const T& v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void operator()(const std::string& s)
  {
    (*this)(static_cast<std::uint64_t>(s.size()));
    out_ += s;
  }
  void operator()(const Time& t) { (*this)(t.ps); }
  void operator()(const Stream& s) { (*this)(static_cast<int>(s)); }
  void operator()(const std::monostate&) {}  // a null what-if field: its variant index says it
  template <class T>
  void operator()(const std::optional<T>& v)
  {
    (*this)(v.has_value());
    if (v) (*this)(*v);
  }
  template <class A, class B>
  void operator()(const std::pair<A, B>& p)
  {
    (*this)(p.first);
    (*this)(p.second);
  }
  template <class T>
  void operator()(const std::vector<T>& v)
  {
    (*this)(static_cast<std::uint64_t>(v.size()));
    for (const T& x : v) (*this)(x);
  }
  template <class... T>
  void operator()(const std::variant<T...>& v)
  {
    (*this)(static_cast<std::uint64_t>(v.index()));
    std::visit([this](const auto& x) { (*this)(x); }, v);
  }
  template <class T>
  requires std::is_class_v<T> && requires(const T& t, Writer& w) { fields(t, w); } void operator()(const T& v) { fields(v, *this); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  template <class T>
  requires std::is_arithmetic_v<T> void operator()(T& v)
  {
    need(sizeof v);
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
  }
  void operator()(std::string& s)
  {
    std::uint64_t n = 0;
    (*this)(n);
    need(n);
    s = in_.substr(pos_, n);
    pos_ += n;
  }
  void operator()(Time& t) { (*this)(t.ps); }
  void operator()(std::monostate&) {}
  void operator()(Stream& s)
  {
    int v = 0;
    (*this)(v);
    s = static_cast<Stream>(v);
  }
  template <class T>
  void operator()(std::optional<T>& v)
  {
    bool has = false;
    (*this)(has);
    v.reset();
    if (has) (*this)(v.emplace());
  }
  template <class A, class B>
  void operator()(std::pair<A, B>& p)
  {
    (*this)(p.first);
    (*this)(p.second);
  }
  template <class T>
  void operator()(std::vector<T>& v)
  {
    std::uint64_t n = 0;
    (*this)(n);
    DDPSIM_CHECK(n <= in_.size(), "corrupt result from a sweep process");
    v.resize(n);
    for (T& x : v) (*this)(x);
  }
  template <class... T>
  void operator()(std::variant<T...>& v)
  {
    std::uint64_t i = 0;
    (*this)(i);
    DDPSIM_CHECK(i < sizeof...(T), "corrupt result from a sweep process");
    alternative(v, i);
  }
  template <class T>
  requires std::is_class_v<T> && requires(T& t, Reader& r) { fields(t, r); } void operator()(T& v) { fields(v, *this); }
  bool done() const { return pos_ == in_.size(); }

 private:
  template <std::size_t I = 0, class... T>
  void alternative(std::variant<T...>& v, std::uint64_t i)
  {
    if constexpr (I < sizeof...(T)) {
      if (i == I) (*this)(v.template emplace<I>());
      else alternative<I + 1>(v, i);
    }
  }
  void need(std::uint64_t n) const { DDPSIM_CHECK(n <= in_.size() - pos_, "truncated result from a sweep process"); }
  const std::string& in_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string encode(const ConfigResult& r, const Timeline* timeline)
{
  Writer w;
  w(r);
  w(timeline ? timeline->spans : std::vector<Span>{});
  return w.take();
}

ConfigResult decode(const std::string& bytes, Timeline* timeline)
{
  Reader rd(bytes);
  ConfigResult r;
  rd(r);
  std::vector<Span> spans;
  rd(spans);
  if (timeline)
    for (Span& s : spans) timeline->add(std::move(s));
  DDPSIM_CHECK(rd.done(), "trailing bytes in a sweep result");
  return r;
}

std::string encode_row(const ConfigResult& r)
{
  Writer w;
  row_fields(r, w);
  return w.take();
}

ConfigResult decode_row(const std::string& bytes)
{
  Reader rd(bytes);
  ConfigResult r;
  row_fields(r, rd);
  DDPSIM_CHECK(rd.done(), "trailing bytes in a plan row");
  return r;
}

std::vector<ConfigResult> fan_out(std::size_t n, int jobs, const std::function<ConfigResult(std::size_t, Timeline*)>& work,
                                  const std::vector<Timeline*>& timelines, const std::function<void(std::size_t)>& collected)
{
  DDPSIM_CHECK(jobs >= 1 && timelines.size() == n, "fan_out arguments");
  std::vector<ConfigResult> out(n);
  std::list<std::pair<std::size_t, ChildProcess>> running;  // (configuration, its child)
  std::size_t next = 0, done = 0;
  auto start = [&](std::size_t i) {
    running.emplace_back(i, ChildProcess([&work, &timelines, i] {
                         Timeline local;
                         ConfigResult r = work(i, timelines[i] ? &local : nullptr);
                         return encode(r, timelines[i] ? &local : nullptr);
                       }));
  };
  while (done < n) {
    while (next < n && running.size() < static_cast<std::size_t>(jobs)) start(next++);
    // Collect whichever child has finished (core/subprocess.hpp first_ready), into its place.
    const auto [i, answer] = collect_first(running);
    out[i] = decode(answer, timelines[i]);
    if (collected) collected(++done);
  }
  return out;
}

}  // namespace ddpsim::sim
