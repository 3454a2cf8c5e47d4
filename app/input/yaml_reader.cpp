#include "app/input/yaml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ddpsim::app {

UserErrors::UserErrors(std::vector<UserError> errors) : UserError(errors.front()), errors_(std::move(errors)) {}

namespace {

// yaml-cpp 0.7 keeps both pairs of a duplicated key and `map[key]` returns the first: the second
// would be ignored silently. Walk every map and report the second occurrence where it stands.
void reject_duplicate_keys(const std::string& name, const YAML::Node& node, const std::string& path, int depth)
{
  if (depth > 256) throw UserError(SourceLocation{name, node.Mark().line + 1, node.Mark().column + 1}, path, "nested too deeply");
  if (node.IsSequence()) {
    std::size_t i = 0;
    for (const YAML::Node& e : node) reject_duplicate_keys(name, e, path + "[" + std::to_string(i++) + "]", depth + 1);
  } else if (node.IsMap()) {
    std::vector<std::string> seen;
    for (const auto& kv : node) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("(complex key)");
      const std::string field = join_path(path, key);
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        const YAML::Mark m = kv.first.Mark();
        throw UserError(SourceLocation{name, m.line + 1, m.column + 1}, field, "duplicate key (it is already set above)");
      }
      seen.push_back(key);
      reject_duplicate_keys(name, kv.second, field, depth + 1);
    }
  }
}

}  // namespace

// Line (1-based) where a second YAML document starts, or 0. A document boundary is a `---` or
// `...` marker at column 0; a `---` before any content opens the first document. We look for the
// markers ourselves because yaml-cpp 0.7's LoadAll never returns on some malformed inputs (a lone
// "," loops forever allocating nodes: found by fuzz_catalog), while Load stops after one document.
int second_document_line(const std::string& text)
{
  bool content = false, ended = false;
  int line_no = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto marker = [&](const char* m) {
      return line.rfind(m, 0) == 0 && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '#');
    };
    if (marker("---")) {
      if (content || ended) return line_no;
      continue;
    }
    if (marker("...")) {
      ended = true;
      continue;
    }
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    if (ended) return line_no;
    if (line[0] != '%') content = true;  // %YAML / %TAG directives precede a document
  }
  return 0;
}

YAML::Node parse_yaml(const std::string& name, const std::string& text)
{
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UserError(SourceLocation{name, e.mark.line + 1, e.mark.column + 1}, "", "not valid YAML: " + e.msg);
  }
  if (const int line = second_document_line(text))
    throw UserError(SourceLocation{name, line, 1}, "",
                    "more than one YAML document (a second `---`): give one document per file");
  if (!root || root.IsNull()) {
    bool blank = true;  // nothing but spaces and comments
    std::istringstream in(text);
    for (std::string line; blank && std::getline(in, line);) {
      const std::size_t first = line.find_first_not_of(" \t\r");
      blank = first == std::string::npos || line[first] == '#';
    }
    throw UserError(SourceLocation{name, 1, 1}, "", blank ? "the file is empty" : "the document has no value (it reads as null)");
  }
  reject_duplicate_keys(name, root, "", 0);
  return root;
}

std::string read_text_file(const std::string& path)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) throw UserError(SourceLocation{path, 0, 0}, "", "is a directory, not a file");
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw UserError(SourceLocation{path, 0, 0}, "", "is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(SourceLocation{path, 0, 0}, "", "cannot read the file (does it exist?)");
  // Inputs are hand-written YAML and logs; a cap keeps a wrong file (an image, a dump) from
  // filling memory before the parser can say it is not ours.
  constexpr std::uintmax_t kMaxInput = 256 * MiB;
  if (fs::file_size(path, ec) > kMaxInput && !ec)
    throw UserError(SourceLocation{path, 0, 0}, "", "larger than 256 MiB: not a ddpsim input");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw UserError(SourceLocation{path, 0, 0}, "", "cannot read the file");
  return text.str();
}

YAML::Node load_yaml_file(const std::string& path) { return parse_yaml(path, read_text_file(path)); }

SourceLocation locate_field(const std::string& path, const std::string& field, bool* exact)
{
  SourceLocation at{path, 1, 1};
  if (exact) *exact = false;
  try {
    YAML::Node node = YAML::Load(read_text_file(path));
    std::string rest = field;
    while (!rest.empty() && node.IsMap()) {
      const std::string key = rest.substr(0, rest.find('.'));
      rest = rest.find('.') == std::string::npos ? "" : rest.substr(rest.find('.') + 1);
      bool found = false;
      for (const auto& kv : node)
        if (kv.first.IsScalar() && kv.first.Scalar() == key) {
          at = SourceLocation{path, kv.first.Mark().line + 1, kv.first.Mark().column + 1};
          node = kv.second;
          found = true;
          break;
        }
      if (!found) break;
      if (rest.empty() && exact) *exact = true;
    }
  } catch (const std::exception&) {
    // The file loaded once already; if it cannot now, 1:1 is the best we can say.
  }
  return at;
}

void rethrow_located(const UserError& e, const std::string& file)
{
  if (!e.where().file.empty()) throw e;
  throw UserError(locate_field(file, e.field()), e.field(), e.message());
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates)
{
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0u : 1u)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    std::size_t d = distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

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
  if (node.IsMap()) return true;
  error(node, path.empty() ? "(top level)" : path, "expected a map of keys to values");
  return false;
}

void Reader::allow_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed)
{
  if (!map.IsMap()) return;
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
  if (!map.IsMap()) return std::nullopt;
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
    error(n, field, "expected a single value, not a " + std::string(n.IsMap() ? "map" : "list"));
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
