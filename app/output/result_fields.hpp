// The one field list of a scenario's result row (sim::ConfigResult), as its writers show it: the
// JSON key, its unit, the value (through nlohmann-json) and, where the row is also a CSV column,
// the column's place. Every writer of result rows (scenario JSON and CSV, the plan's and the
// shared fabric's JSON rows) takes its keys and values from here, so a result field added to
// ConfigResult is shown by adding one row to the list in result_fields.cpp (issue 17, item 5).
// The terminal and HTML tables choose and format their columns for people and take each value
// from this list by name (scenario_columns.cpp).
#pragma once

#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::app {

using Json = nlohmann::ordered_json;

// CSV columns shown only when some row has them (what-ifs, observations); `base`: always.
// `whatif`: the what-if named in ResultField::whatif (app/whatifs/).
enum class CsvGroup { base, degraded, compiler, observed, whatif };

struct ResultField {
  std::string name;  // JSON key and CSV column
  std::string unit;  // "s", "1/s", "USD", "B", "" for text and counts, "1" for ratios
  // The row's value; a discarded value leaves the key out of this row (and the CSV cell empty).
  // Empty function: a CSV column only.
  std::function<Json(const sim::ConfigResult&)> json;
  int csv = 0;  // place among the CSV columns (ascending); 0: not a CSV column
  // The CSV cell where it is not the JSON value printed (numbers %.9g, text RFC 4180, null empty).
  std::function<std::string(const sim::ConfigResult&)> cell{};
  CsvGroup group = CsvGroup::base;
  std::string whatif{};  // CsvGroup::whatif: its name
};

// Every field, in JSON key order; one by name (InternalError for a name not in the list).
const std::vector<ResultField>& result_fields();
const ResultField& result_field(std::string_view name);

// A what-if's result field as JSON (a flag, count, number, text or series); InternalError when absent.
Json whatif_json(const sim::WhatIfResult& x, const std::string& field);

// Appends each what-if's JSON object (after the field its view names) and CSV columns (whatif_fields.cpp).
void add_whatif_fields(std::vector<ResultField>& fields);

// One row as a JSON object: every field, or (put_result_fields) the named ones in the order given.
Json result_json(const sim::ConfigResult& r);
void put_result_fields(Json& o, const sim::ConfigResult& r, std::initializer_list<std::string_view> names);

// The rows as CSV: a header line, then one line per row.
std::string results_csv(const std::vector<sim::ConfigResult>& rows);

// "fits: needs 12.3 GiB of 40 GiB" or "does not fit: needs 25.1 GiB of 16 GiB".
std::string fit_note(const sim::ConfigResult& r);

}  // namespace ddpsim::app
