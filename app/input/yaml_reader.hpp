// YAML at the edge: load a file, then read typed, unit-bearing values out of it while collecting
// every error with its file:line:column and field path. Nothing past app/ sees YAML.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/text.hpp"  // closest
#include "core/units.hpp"

namespace ddpsim::app {

// Several user errors at once; what() is the first, all() every one (each one line).
class UserErrors : public UserError {
 public:
  explicit UserErrors(std::vector<UserError> errors);
  const std::vector<UserError>& all() const { return errors_; }

 private:
  std::vector<UserError> errors_;
};

// Parses `text` as one YAML document named `name` (for messages). Throws UserError on a syntax
// error or an empty document.
YAML::Node parse_yaml(const std::string& name, const std::string& text);
// The whole file. Throws UserError naming it when it cannot be read.
std::string read_text_file(const std::string& path);
// Reads and parses a file. Throws UserError when it cannot be read.
YAML::Node load_yaml_file(const std::string& path);

// Where `field` (a dotted path such as "training.grad_accum_steps") stands in the YAML file `path`:
// the key's position, else its deepest present parent's, else 1:1. For errors found after
// loading (a profile that does not match, a simulation that overflows because of a field).
// `exact` (when given) says whether the field itself was found.
SourceLocation locate_field(const std::string& path, const std::string& field, bool* exact = nullptr);
// Rethrows `e` located in `file` when it names a field but no file (e.g. from sim/ code).
[[noreturn]] void rethrow_located(const UserError& e, const std::string& file);


class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  SourceLocation where(const YAML::Node& n) const;
  void error(const YAML::Node& at, const std::string& field, const std::string& message);
  bool ok() const { return errors_.empty(); }
  // Throws UserErrors when any error was recorded.
  void finish() const;

  // `node` must be a map (error otherwise); reports keys not in `allowed`, with a suggestion.
  bool expect_map(const YAML::Node& node, const std::string& path);
  void allow_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed);

  // Typed getters. `map[key]`; a missing key is an error when `required`, else nullopt.
  // The field path in messages is `path.key`.
  std::optional<std::string> string(const YAML::Node& map, const std::string& path, const std::string& key, bool required);
  std::optional<std::int64_t> integer(const YAML::Node& map, const std::string& path, const std::string& key,
                                      bool required, std::int64_t min, std::int64_t max);
  std::optional<double> number(const YAML::Node& map, const std::string& path, const std::string& key, bool required,
                               double min, double max);
  std::optional<bool> boolean(const YAML::Node& map, const std::string& path, const std::string& key, bool required);
  std::optional<Bytes> bytes(const YAML::Node& map, const std::string& path, const std::string& key, bool required);
  std::optional<Time> time(const YAML::Node& map, const std::string& path, const std::string& key, bool required);
  std::optional<Bandwidth> bandwidth(const YAML::Node& map, const std::string& path, const std::string& key,
                                     bool required);
  // One of `choices` (case-sensitive), with a suggestion when close.
  std::optional<std::string> choice(const YAML::Node& map, const std::string& path, const std::string& key,
                                    bool required, const std::vector<std::string>& choices);

  // Scalar conversions of a node already in hand.
  std::optional<std::int64_t> as_integer(const YAML::Node& n, const std::string& field, std::int64_t min,
                                         std::int64_t max);
  std::optional<double> as_number(const YAML::Node& n, const std::string& field, double min, double max);

 private:
  std::optional<YAML::Node> lookup(const YAML::Node& map, const std::string& path, const std::string& key, bool required);
  std::optional<std::string> scalar(const YAML::Node& n, const std::string& field);

  std::string file_;
  std::vector<UserError> errors_;
};

inline std::string join_path(const std::string& path, const std::string& key)
{
  return path.empty() ? key : path + "." + key;
}

}  // namespace ddpsim::app
