#include "sim/study/row_json.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/error.hpp"
#include "core/text.hpp"
#include "sim/study/row_fields.hpp"

namespace ddpsim::sim {
namespace {

using nlohmann::json;

json double_json(double v)
{
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json string_json(const std::string& s)
{
  if (valid_utf8(s)) return s;
  json bytes = json::array();
  for (unsigned char c : s) bytes.push_back(c);
  return json{{"bytes", std::move(bytes)}};
}

// Appends every field to `out`, a JSON array; a struct, list or pair becomes a nested array.
class JsonWriter {
 public:
  explicit JsonWriter(json& out) : out_(out) {}
  template <class T>
  requires std::is_arithmetic_v<T> void operator()(const T& v)
  {
    if constexpr (std::is_floating_point_v<T>) out_.push_back(double_json(v));
    else out_.push_back(v);
  }
  void operator()(const std::string& s) { out_.push_back(string_json(s)); }
  template <class T>
  void operator()(const std::optional<T>& v)
  {
    if (v) (*this)(*v);
    else out_.push_back(nullptr);
  }
  template <class A, class B>
  void operator()(const std::pair<A, B>& p) { nested([&](JsonWriter& w) { w(p.first), w(p.second); }); }
  template <class T>
  void operator()(const std::vector<T>& v) { nested([&](JsonWriter& w) { for (const T& x : v) w(x); }); }
  // A variant (a what-if field's value) as [its index, its value]; null (std::monostate) as [index].
  template <class... T>
  void operator()(const std::variant<T...>& v)
  {
    nested([&](JsonWriter& w) {
      w(static_cast<std::uint64_t>(v.index()));
      std::visit([&w](const auto& x) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(x)>, std::monostate>) w(x);
      }, v);
    });
  }
  template <class T>
  requires std::is_class_v<T> && requires(const T& t, JsonWriter& w) { fields(t, w); } void operator()(const T& v)
  {
    nested([&](JsonWriter& w) { fields(v, w); });
  }

 private:
  template <class F>
  void nested(F f)
  {
    json inner = json::array();
    JsonWriter w(inner);
    f(w);
    out_.push_back(std::move(inner));
  }
  json& out_;
};

// Reads the fields back from an array, in the same order; any mismatch is a ValueError.
class JsonReader {
 public:
  JsonReader(const json& in, std::string path) : in_(in), path_(std::move(path))
  {
    if (!in_.is_array()) throw ValueError((path_.empty() ? "row" : path_) + ": expected a list");
  }
  template <class T>
  requires std::is_arithmetic_v<T> void operator()(T& v)
  {
    const json& j = next();
    if constexpr (std::is_same_v<T, bool>) {
      if (!j.is_boolean()) fail("expected true or false");
      v = j.get<bool>();
    } else if constexpr (std::is_floating_point_v<T>) {
      if (j.is_string() && (j == "nan" || j == "inf" || j == "-inf"))
        v = j == "nan" ? std::numeric_limits<T>::quiet_NaN() : (j == "inf" ? 1 : -1) * std::numeric_limits<T>::infinity();
      else if (j.is_number()) v = j.get<T>();
      else fail("expected a number");
    } else {
      bool fits = false;
      if (j.is_number_unsigned()) fits = j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
      else if constexpr (std::is_signed_v<T>)
        fits = j.is_number_integer() && j.get<std::int64_t>() >= std::numeric_limits<T>::min() &&
               j.get<std::int64_t>() <= std::numeric_limits<T>::max();
      if (!fits) fail("expected an integer in range");
      v = j.get<T>();
    }
  }
  void operator()(std::string& s)
  {
    const json& j = next();
    if (j.is_string()) {
      s = j.get<std::string>();
      return;
    }
    if (!j.is_object() || j.size() != 1 || !j.contains("bytes") || !j["bytes"].is_array()) fail("expected a string");
    s.clear();
    for (const json& b : j["bytes"]) {
      if (!b.is_number_unsigned() || b.get<unsigned>() > 255) fail("expected a byte");
      s += static_cast<char>(b.get<unsigned>());
    }
  }
  template <class T>
  void operator()(std::optional<T>& v)
  {
    if (pos_ < in_.size() && in_[pos_].is_null()) {
      ++pos_;
      v.reset();
      return;
    }
    (*this)(v.emplace());
  }
  template <class A, class B>
  void operator()(std::pair<A, B>& p) { nested([&](JsonReader& r) { r(p.first), r(p.second); }); }
  template <class T>
  void operator()(std::vector<T>& v)
  {
    v.clear();
    nested([&](JsonReader& r) {
      while (!r.done()) r(v.emplace_back());
    });
  }
  template <class... T>
  void operator()(std::variant<T...>& v)
  {
    nested([&](JsonReader& r) {
      std::uint64_t i = 0;
      r(i);
      if (i >= sizeof...(T)) r.fail("expected a value kind below " + std::to_string(sizeof...(T)));
      r.alternative(v, i);
    });
  }
  template <class T>
  requires std::is_class_v<T> && requires(T& t, JsonReader& r) { fields(t, r); } void operator()(T& v)
  {
    nested([&](JsonReader& r) { fields(v, r); });
  }
  template <std::size_t I = 0, class... T>
  void alternative(std::variant<T...>& v, std::uint64_t i)
  {
    if constexpr (I < sizeof...(T)) {
      if (i != I) return alternative<I + 1>(v, i);
      if constexpr (!std::is_same_v<std::variant_alternative_t<I, std::variant<T...>>, std::monostate>) (*this)(v.template emplace<I>());
      else v.template emplace<I>();
    }
  }
  bool done() const { return pos_ == in_.size(); }
  void finish() const
  {
    if (!done()) throw ValueError(path_ + "[" + std::to_string(pos_) + "]: more fields than this ddpsim's rows have");
  }

 private:
  // Names the field last read (or the end of this list).
  [[noreturn]] void fail(const std::string& why) const
  {
    throw ValueError(path_ + "[" + std::to_string(pos_ > 0 ? pos_ - 1 : 0) + "]: " + why);
  }
  const json& next()
  {
    if (done()) throw ValueError(path_ + "[" + std::to_string(pos_) + "]: fewer fields than this ddpsim's rows have");
    return in_[pos_++];
  }
  template <class F>
  void nested(F f)
  {
    const std::size_t at = pos_;
    JsonReader r(next(), path_ + "[" + std::to_string(at) + "]");
    f(r);
    r.finish();
  }
  const json& in_;
  std::string path_;
  std::size_t pos_ = 0;
};

}  // namespace

json row_json(const ConfigResult& r)
{
  json out = json::array();
  JsonWriter w(out);
  row_fields(r, w);
  return out;
}

ConfigResult row_from_json(const json& j)
{
  ConfigResult r;
  JsonReader rd(j, "");
  row_fields(r, rd);
  rd.finish();
  return r;
}

}  // namespace ddpsim::sim
