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

}  // namespace ddpsim::app
