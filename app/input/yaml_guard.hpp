// Bounds on what a YAML input may cost before any loader reads it (docs/reliability.md): its
// size (files and standard input alike), its nesting, and its size once aliases are expanded.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace ddpsim::app {

// Inputs are hand-written YAML and logs; a cap keeps a wrong input (an image, a dump, a pipe
// that never ends) from filling memory before the parser can say it is not ours.
inline constexpr std::uint64_t kMaxInputBytes = 256ull << 20;
inline constexpr const char* kTooLargeMessage = "larger than 256 MiB: not a ddpsim input";
inline constexpr int kMaxYamlDepth = 256;
// Nodes a document may hold once every alias is expanded. The largest real input (a plan with
// every zoo model) holds a few thousand; loaders walk the expanded tree, so this bounds them.
inline constexpr std::uint64_t kMaxExpandedNodes = 1'000'000;

// One linear walk (each distinct node once, aliases included): a duplicate key in any map, a
// document nested deeper than kMaxYamlDepth, an alias cycle, or an expansion past
// kMaxExpandedNodes is a UserError located in `name`.
void check_yaml_tree(const std::string& name, const YAML::Node& root);

// Line (1-based) where a second YAML document starts in `text`, or 0.
int second_document_line(const std::string& text);

// Reads `in` to its end, refusing (UserError located at `name`) once past kMaxInputBytes.
std::string read_capped(std::istream& in, const std::string& name);

}  // namespace ddpsim::app
