// A finished result row as JSON and back, exactly (issue 17: shard files, app/output/shards.hpp).
// The row is an array that walks the one field list (row_fields.hpp) in order, nested for nested
// structs, lists and pairs; a missing optional is null. Nothing depends on byte order or type
// sizes: integers are JSON integers, doubles JSON numbers in nlohmann-json's round-trip form (the
// same bits come back; non-finite ones as "nan", "inf", "-inf"), strings that are not UTF-8 a
// {"bytes": [...]} object, so the row read back is the row written, bit for bit.
#pragma once

#include <nlohmann/json.hpp>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

nlohmann::json row_json(const ConfigResult& r);

// Throws ValueError naming the position that is wrong ("[12][3]: expected a number") when the JSON
// is not such a row (another format version's, or edited).
ConfigResult row_from_json(const nlohmann::json& j);

}  // namespace ddpsim::sim
