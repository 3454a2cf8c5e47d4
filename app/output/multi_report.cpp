#include "app/output/multi_report.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "app/output/report.hpp"

namespace ddpsim::app {
namespace {

std::string quote(const std::string& s)
{
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::vector<std::string> split_csv_line(const std::string& line)
{
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::string scenarios_csv(const std::vector<sim::ScenarioReport>& reports)
{
  std::vector<std::string> columns;
  struct Table {
    std::vector<std::string> head;
    std::vector<std::vector<std::string>> rows;
  };
  std::vector<Table> tables;
  for (const sim::ScenarioReport& rep : reports) {
    std::istringstream in(scenario_csv(rep));
    Table t;
    std::string line;
    std::getline(in, line);
    t.head = split_csv_line(line);
    for (const std::string& c : t.head)
      if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
    while (std::getline(in, line))
      if (!line.empty()) t.rows.push_back(split_csv_line(line));
    tables.push_back(std::move(t));
  }
  std::string out = "scenario";
  for (const std::string& c : columns) out += "," + quote(c);
  out += "\n";
  for (std::size_t k = 0; k < reports.size(); ++k) {
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < tables[k].head.size(); ++i) at[tables[k].head[i]] = i;
    for (const auto& row : tables[k].rows) {
      out += quote(reports[k].scenario);
      for (const std::string& c : columns) {
        const auto it = at.find(c);
        out += "," + (it != at.end() && it->second < row.size() ? quote(row[it->second]) : std::string());
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace ddpsim::app
