#include "app/input/yaml_guard.hpp"

#include <algorithm>
#include <istream>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "app/input/yaml_reader.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace ddpsim::app {
namespace {

SourceLocation at(const std::string& name, const YAML::Node& n)
{
  return SourceLocation{name, n.Mark().line + 1, n.Mark().column + 1};
}

// One walk over the parsed tree. An alias in yaml-cpp is the anchored node itself (the same
// detail::node), so a tree with aliases is a DAG whose expansion can be exponential in its text
// ("billion laughs": 9 levels of 10 aliases is 10^9 nodes in 500 bytes). Each distinct node is
// visited once (identity: Node::is, hashed by the node's source position), its expanded size is
// memoised, and a document whose expansion passes kMaxExpandedNodes is refused where it passes.
class TreeCheck {
 public:
  explicit TreeCheck(const std::string& name) : name_(name) {}

  // Expanded node count below and including `node` (saturating at the budget + 1).
  std::uint64_t walk(const YAML::Node& node, const std::string& path, int depth)
  {
    if (!node.IsMap() && !node.IsSequence()) return 1;
    if (depth > kMaxYamlDepth) throw UserError(at(name_, node), path, "nested too deeply");
    Entry& e = entry(node);
    if (e.state == State::done) return e.size;
    if (e.state == State::open)
      throw UserError(at(name_, node), path, "an alias refers to a node that contains it (a cycle)");
    e.state = State::open;
    std::uint64_t size = 1;
    if (node.IsSequence()) {
      std::size_t i = 0;
      for (const YAML::Node& child : node) size = add(size, walk(child, path + "[" + std::to_string(i++) + "]", depth + 1));
    } else {
      std::unordered_set<std::string_view> seen;  // views into the node's own scalars
      seen.reserve(node.size());
      for (const auto& kv : node) {
        const bool scalar = kv.first.IsScalar();
        const std::string& key = scalar ? kv.first.Scalar() : kComplexKey;
        const std::string field = join_path(path, key);
        if (scalar && !seen.insert(std::string_view(key)).second)
          throw UserError(at(name_, kv.first), field, "duplicate key (it is already set above)");
        size = add(size, walk(kv.first, field, depth + 1));
        size = add(size, walk(kv.second, field, depth + 1));
        if (size > kMaxExpandedNodes) break;
      }
    }
    if (size > kMaxExpandedNodes)
      throw UserError(at(name_, node), path.empty() ? "(top level)" : path,
                      "aliases expand this document to more than " + std::to_string(kMaxExpandedNodes) +
                          " nodes (an anchor repeated too often): not a ddpsim input");
    Entry& done = entry(node);  // the table may have grown while walking the children
    done.state = State::done;
    done.size = size;
    return size;
  }

 private:
  enum class State { fresh, open, done };
  struct Entry {
    YAML::Node node;
    State state = State::fresh;
    std::uint64_t size = 0;
  };
  inline static const std::string kComplexKey = "(complex key)";

  static std::uint64_t add(std::uint64_t a, std::uint64_t b) { return std::min(a + b, kMaxExpandedNodes + 1); }

  Entry& entry(const YAML::Node& node)
  {
    // Distinct collections start at distinct offsets, except a block map and its first key
    // (different kinds, compared by is()): the bucket is short.
    std::vector<Entry>& bucket = table_[node.Mark().pos];
    for (Entry& e : bucket)
      if (e.node.is(node)) return e;
    bucket.push_back(Entry{node});
    return bucket.back();
  }

  const std::string& name_;
  std::unordered_map<int, std::vector<Entry>> table_;
};

}  // namespace

void check_yaml_tree(const std::string& name, const YAML::Node& root) { TreeCheck(name).walk(root, "", 0); }

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

std::string read_capped(std::istream& in, const std::string& name)
{
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes) throw UserError(SourceLocation{name, 0, 0}, "", kTooLargeMessage);
  }
  if (in.bad()) throw UserError(SourceLocation{name, 0, 0}, "", "cannot read the input");
  return text;
}

}  // namespace ddpsim::app
