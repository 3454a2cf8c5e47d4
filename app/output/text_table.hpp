// Terminal tables (issue 20): columns padded to their widest cell, one time unit per column named
// in its head, and words wrapped so the default output stays within 120 characters. Used by the
// scenario table, the what-if tables and the shared-fabric table.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "app/output/scenario_columns.hpp"
#include "app/output/text_format.hpp"
#include "app/output/time_units.hpp"

namespace ddpsim::app {

// Words of `text` on lines of at most `width` characters.
inline std::string wrap_words(const std::string& text, std::size_t width)
{
  std::string out, line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    if (!line.empty() && line.size() + 1 + word.size() > width) out += line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) c == ' ' ? flush_word() : void(word += c);
  flush_word();
  return out + line + (line.empty() ? "" : "\n");
}

// The head line, then one line per row (the first column's cell count), two spaces between columns.
inline std::string render_columns(const std::vector<TableColumn>& cols)
{
  std::vector<std::size_t> width;
  for (const TableColumn& c : cols) {
    std::size_t w = c.head.size();
    for (const std::string& cell : c.cells) w = std::max(w, cell.size());
    width.push_back(w);
  }
  std::string out;
  const std::size_t rows = cols.empty() ? 0 : cols.front().cells.size();
  for (std::size_t row = 0; row <= rows; ++row) {  // row 0: the heads
    std::string l;
    for (std::size_t i = 0; i < cols.size(); ++i)
      l += (i ? "  " : "") + pad(row == 0 ? cols[i].head : cols[i].cells[row - 1], width[i], !cols[i].left);
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  }
  return out;
}

// A time column: the unit chosen from its values, in the head ("restart [min]"); "-" where empty.
inline TableColumn time_column(const std::string& name, const std::vector<std::optional<double>>& seconds)
{
  std::vector<double> all;
  for (const auto& s : seconds)
    if (s) all.push_back(*s);
  const TimeUnit u = column_unit(all);
  TableColumn c{name + " [" + u.name + "]", false, {}};
  for (const auto& s : seconds) c.cells.push_back(s ? in_unit(*s, u) : "-");
  return c;
}

// Three times (p50, p10, p90) in one unit: "10.02" or "10.02 (9.91-10.20)" (app/output/scenario_columns.hpp).
inline TableColumn band_column(const std::string& name, const std::vector<std::optional<std::array<double, 3>>>& v)
{
  std::vector<double> all;
  for (const auto& s : v)
    if (s) all.insert(all.end(), s->begin(), s->end());
  const TimeUnit u = column_unit(all);
  TableColumn c{name + " [" + u.name + "]", false, {}};
  for (const auto& s : v)
    c.cells.push_back(s ? with_band(in_unit((*s)[0], u), in_unit((*s)[1], u), in_unit((*s)[2], u)) : "-");
  return c;
}

}  // namespace ddpsim::app
