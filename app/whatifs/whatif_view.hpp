// A what-if as the app reads and shows it (issue 17): the scenario file's section that builds the
// model (sim/study/whatifs/whatif.hpp) and how the model's result fields are shown, by name, in
// JSON, CSV, the terminal and HTML. Each what-if is one file here, app/whatifs/NAME.cpp, defining
// `const WhatIfView& whatif_view_NAME()` (designated initializers name the members); app/CMakeLists.txt globs these files into the list
// whatif_views() (in file-name order), and the loader (its keys included), the result fields, the
// tables, the HTML page and the trace take every what-if from that list.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/input/scenario_keys.hpp"
#include "app/input/yaml_reader.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::app {

// How a column shows one of the result's fields.
enum class Show {
  time,     // seconds: one unit per terminal column (in its head), a human time in HTML, %.9g in CSV
  integer,  // a count as it is
  fixed,    // a number x times / over through `format` (e.g. "%.3fx"); %.9g in CSV
  text,     // a text as it is (left-aligned)
};

struct WhatIfColumn {
  std::string head;   // the table's or HTML's column head; a CSV column's name
  std::string field;  // the sim::WhatIfResult field it shows
  Show show = Show::time;
  std::string format{};  // Show::fixed
  int place = 0;       // CSV only: its place among the CSV columns (result_fields.hpp)
  std::string null_text = "-";  // a null value's cell (CSV: empty)
  double times = 1, over = 1;   // Show::fixed: the value shown is field x times / over
};

// A cell of `c` for `x`: null_text for a null value, `time` for Show::time.
std::string whatif_cell(const sim::WhatIfResult& x, const WhatIfColumn& c, const std::function<std::string(double)>& time);

struct WhatIfView {
  std::string name;  // the scenario file's section, the JSON key, sim::WhatIf::name()
  KeyTable keys;     // the section's keys, path by path ("NAME", "NAME.sub", ...): scenario_keys.hpp
  std::string section_after = "compiler";  // the top-level key its section follows in the key list
  // Builds the model from the section (keys checked against `keys`; errors through the Reader,
  // nullptr after one).
  std::function<std::shared_ptr<const sim::WhatIf>(Reader&, const YAML::Node&, const sim::ScenarioSpec&)> parse;
  std::vector<std::string> json;  // the fields of the JSON object, in order
  std::string json_after;         // the result field the object follows in a row ("": at the end)
  std::vector<WhatIfColumn> csv;  // CSV columns, present when some row has this what-if
  // The table under a scenario's table: "title:" line, rows with the what-if (instance, framework
  // and nodes first), then a legend.
  std::function<std::string(const sim::WhatIfResult& first)> title{};
  std::vector<WhatIfColumn> table{};
  std::string legend{};
  // A table of the what-if's own instead (title, table and legend above unused), or empty.
  std::function<std::string(const sim::ScenarioReport&, bool wide)> table_text{};
  // The HTML page's section: a "configuration" column, then these. Fields a row lacks are left out
  // of JSON (CSV: empty cells).
  std::string html_heading;
  std::vector<WhatIfColumn> html;
  std::string html_note;
  bool html_grey_unfit = false;  // rows that do not fit in memory greyed (class "bad")
  int html_order = 0;            // sections in this order on the page (then file-name order)
  // A small section for the tests (tests/unit/test_whatif_views.cpp), in flow style, e.g.
  // "{steps_simulated: 4, ranks: {1: 1.5}}": it must parse, run, and give every field shown above.
  std::string example{};
};

// Every what-if of app/whatifs/, in file-name order.
const std::vector<const WhatIfView*>& whatif_views();

}  // namespace ddpsim::app
