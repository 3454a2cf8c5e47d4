// YAML files: parsing (one document, no duplicate keys), reading files, locating a field in
// its file, and the closest name for a suggestion. The typed Reader is in yaml_reader.cpp.
#include "app/input/yaml_reader.hpp"

#include "app/input/yaml_guard.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ddpsim::app {

UserErrors::UserErrors(std::vector<UserError> errors) : UserError(errors.front()), errors_(std::move(errors)) {}


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
  check_yaml_tree(name, root);  // duplicate keys, depth, alias expansion (app/yaml_guard.hpp)
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
  if (fs::file_size(path, ec) > kMaxInputBytes && !ec) throw UserError(SourceLocation{path, 0, 0}, "", kTooLargeMessage);
  return read_capped(in, path);  // capped again while reading: the file may grow meanwhile
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
  // Issue 20: a word that is a whole part of one candidate ("ddp" of "pytorch-ddp", "p4d" of
  // "p4d.24xlarge") means that candidate, however far the spelling.
  auto is_sep = [](char c) { return c == '.' || c == '-' || c == '_'; };
  std::vector<std::string> parts;
  for (const std::string& c : candidates)
    for (std::size_t at = c.find(word); word.size() >= 2 && at != std::string::npos; at = c.find(word, at + 1))
      if ((at == 0 || is_sep(c[at - 1])) && (at + word.size() == c.size() || is_sep(c[at + word.size()])) && c != word) {
        parts.push_back(c);
        break;
      }
  if (parts.size() == 1) return parts.front();
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

}  // namespace ddpsim::app
