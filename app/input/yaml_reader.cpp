#include "app/input/yaml_reader.hpp"

#include <algorithm>
#include <cmath>

namespace ddpsim::app {

SourceLocation Reader::where(const YAML::Node& n) const
{
  if (!n || n.Mark().is_null()) return SourceLocation{file_, 0, 0};
  return SourceLocation{file_, n.Mark().line + 1, n.Mark().column + 1};
}

void Reader::error(const YAML::Node& at, const std::string& field, const std::string& message)
{
  errors_.emplace_back(where(at), field, message);
}

void Reader::finish() const
{
  if (!errors_.empty()) throw UserErrors(errors_);
}

bool Reader::expect_map(const YAML::Node& node, const std::string& path)
{
  // A key missing from a const map reads as an invalid node whose IsMap() throws (InvalidNode).
  if (node.IsDefined() && node.IsMap()) return true;
  error(node, path.empty() ? "(top level)" : path, "expected a map of keys to values");
  return false;
}

void Reader::allow_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed)
{
  if (!map.IsDefined() || !map.IsMap()) return;
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string hint = closest(key, allowed);
    std::string msg = "unknown key";
    if (!hint.empty()) msg += " (did you mean \"" + hint + "\"?)";
    else {
      std::string valid;
      for (const std::string& a : allowed) valid += (valid.empty() ? "" : ", ") + a;
      msg += " (valid keys: " + valid + ")";
    }
    errors_.emplace_back(where(kv.first), join_path(path, key), msg);
  }
}

std::optional<YAML::Node> Reader::lookup(const YAML::Node& map, const std::string& path, const std::string& key,
                                         bool required)
{
  if (!map.IsDefined() || !map.IsMap()) return std::nullopt;
  YAML::Node n = map[key];
  if (!n.IsDefined() || n.IsNull()) {
    if (required) error(map, join_path(path, key), "missing (this key is required)");
    return std::nullopt;
  }
  return n;
}

std::optional<std::string> Reader::scalar(const YAML::Node& n, const std::string& field)
{
  if (!n.IsScalar()) {
    // Issue 20: lists and ranges of these are what `ddpsim plan` sweeps (app/plan_loader.cpp).
    static const char* const plan_axes[] = {"cluster.instance", "training.framework", "communication.algorithm",
                                            "training.batch_per_gpu", "training.precision", "training.bucket_cap_mb"};
    std::string hint;
    if (field == "cluster.nodes" && n.IsMap())
      hint = "; a node range {from, to, by} is for `ddpsim plan FILE` (a scenario lists its counts: nodes: [1, 2, 4])";
    else if (n.IsSequence() && std::find(std::begin(plan_axes), std::end(plan_axes), field) != std::end(plan_axes))
      hint = "; to compare several, run it as a plan: `ddpsim plan FILE` (README, \"Planning\")";
    error(n, field, "expected a single value, not a " + std::string(n.IsMap() ? "map" : "list") + hint);
    return std::nullopt;
  }
  return n.Scalar();
}

std::optional<std::string> Reader::string(const YAML::Node& map, const std::string& path, const std::string& key,
                                          bool required)
{
  auto n = lookup(map, path, key, required);
  if (!n) return std::nullopt;
  return scalar(*n, join_path(path, key));
}

std::optional<std::int64_t> Reader::as_integer(const YAML::Node& n, const std::string& field, std::int64_t min,
                                               std::int64_t max)
{
  auto text = scalar(n, field);
  if (!text) return std::nullopt;
  double v = 0;
  std::int64_t i = 0;
  if (YAML::convert<std::int64_t>::decode(n, i)) {
    // exact integer
  } else if (YAML::convert<double>::decode(n, v) && std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9e18) {
    i = static_cast<std::int64_t>(v);  // 1e9 style
  } else {
    error(n, field, "expected a whole number, got \"" + *text + "\"");
    return std::nullopt;
  }
  if (i < min || i > max) {
    error(n, field, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " + *text);
    return std::nullopt;
  }
  return i;
}

std::optional<double> Reader::as_number(const YAML::Node& n, const std::string& field, double min, double max)
{
  auto text = scalar(n, field);
  if (!text) return std::nullopt;
  double v = 0;
  if (!YAML::convert<double>::decode(n, v) || !std::isfinite(v)) {
    error(n, field, "expected a number, got \"" + *text + "\"");
    return std::nullopt;
  }
  if (v < min || v > max) {
    std::ostringstream range;
    range << "must be between " << min << " and " << max << ", got " << *text;
    error(n, field, range.str());
    return std::nullopt;
  }
  return v;
}

std::optional<std::int64_t> Reader::integer(const YAML::Node& map, const std::string& path, const std::string& key,
                                            bool required, std::int64_t min, std::int64_t max)
{
  auto n = lookup(map, path, key, required);
  if (!n) return std::nullopt;
  return as_integer(*n, join_path(path, key), min, max);
}

std::optional<double> Reader::number(const YAML::Node& map, const std::string& path, const std::string& key,
                                     bool required, double min, double max)
{
  auto n = lookup(map, path, key, required);
  if (!n) return std::nullopt;
  return as_number(*n, join_path(path, key), min, max);
}

std::optional<bool> Reader::boolean(const YAML::Node& map, const std::string& path, const std::string& key,
                                    bool required)
{
  auto n = lookup(map, path, key, required);
  if (!n) return std::nullopt;
  bool b = false;
  if (!n->IsScalar() || !YAML::convert<bool>::decode(*n, b)) {
    error(*n, join_path(path, key), "expected true or false");
    return std::nullopt;
  }
  return b;
}

// Units: the text goes through core's parsers; a ValueError becomes a located UserError.
#define DDPSIM_UNIT_GETTER(NAME, TYPE, PARSER)                                                          \
  std::optional<TYPE> Reader::NAME(const YAML::Node& map, const std::string& path, const std::string& key, \
                                   bool required)                                                       \
  {                                                                                                     \
    auto n = lookup(map, path, key, required);                                                          \
    if (!n) return std::nullopt;                                                                        \
    auto text = scalar(*n, join_path(path, key));                                                       \
    if (!text) return std::nullopt;                                                                     \
    try {                                                                                               \
      return PARSER(*text);                                                                             \
    } catch (const ValueError& e) {                                                                     \
      error(*n, join_path(path, key), e.what());                                                        \
      return std::nullopt;                                                                              \
    }                                                                                                   \
  }
DDPSIM_UNIT_GETTER(bytes, Bytes, parse_bytes)
DDPSIM_UNIT_GETTER(time, Time, parse_time)
DDPSIM_UNIT_GETTER(bandwidth, Bandwidth, parse_bandwidth)
#undef DDPSIM_UNIT_GETTER

std::optional<std::string> Reader::choice(const YAML::Node& map, const std::string& path, const std::string& key,
                                          bool required, const std::vector<std::string>& choices)
{
  auto value = string(map, path, key, required);
  if (!value) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), *value) != choices.end()) return value;
  std::string valid;
  for (const std::string& c : choices) valid += (valid.empty() ? "" : ", ") + c;
  std::string hint = closest(*value, choices);
  error(map[key], join_path(path, key),
        "unknown value \"" + *value + "\"" + (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)") +
            "; valid: " + valid);
  return std::nullopt;
}

}  // namespace ddpsim::app
