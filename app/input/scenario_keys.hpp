// The keys a scenario file may hold, per section: the loaders check maps against these lists and
// tests/unit/test_schema_keys.cpp checks that docs/scenario.schema.json names exactly the same
// keys, so a key added to one and not the other fails the build's tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ddpsim::app {

// (path, keys). A path is dotted from the document root ("" is the root); "[]" marks the items
// of a list, e.g. "model.layers[]". Plan-only sections (goal, pricing) are listed too.
using KeyTable = std::vector<std::pair<std::string, std::vector<std::string>>>;
const KeyTable& scenario_key_table();
// The keys allowed at `path`; throws InternalError for a path not in the table.
const std::vector<std::string>& scenario_keys(const std::string& path);

}  // namespace ddpsim::app
