// The what-if tables under a scenario's table (issue 12): those of app/whatifs/ (issue 17), from
// the columns each declares or its own table_text.
// Issue 20: as the main table, one time unit per column (in its head), instance and framework
// only where they vary (or under --wide), p10-p90 beside the p50 only where not zero-width, and
// the default table within 120 characters; --wide adds the rest, JSON and CSV keep every field.
#include "app/output/whatif_tables.hpp"

#include <functional>
#include <set>

#include "app/output/text_table.hpp"
#include "app/whatifs/whatif_view.hpp"
#include "core/text.hpp"

namespace ddpsim::app {

using Result = sim::ConfigResult;

TableColumn WhatIfRows::text(const std::string& head, bool left, const std::function<std::string(const Result&)>& f) const
{
  TableColumn c{head, left, {}};
  for (const Result* r : rows) c.cells.push_back(f(*r));
  return c;
}

void WhatIfRows::time(const std::string& head, const std::function<std::optional<double>(const Result&)>& f)
{
  std::vector<std::optional<double>> v;
  for (const Result* r : rows) v.push_back(f(*r));
  cols.push_back(time_column(head, v));
}

WhatIfRows whatif_rows(const sim::ScenarioReport& rep, bool wide, const std::string& name)
{
  WhatIfRows t;
  std::set<std::string> instances, frameworks;
  for (const Result& r : rep.results)
    if (r.whatif(name)) t.rows.push_back(&r), instances.insert(r.instance), frameworks.insert(r.framework);
  if (wide || instances.size() > 1) t.cols.push_back(t.text("instance", true, [](const Result& r) { return printable(r.instance); }));
  if (wide || frameworks.size() > 1) t.cols.push_back(t.text("framework", true, [](const Result& r) { return r.framework; }));
  t.cols.push_back(t.text("nodes", false, [](const Result& r) { return std::to_string(r.nodes); }));
  return t;
}

namespace {

// A what-if of app/whatifs/ (issue 17): its title, the columns its view declares, its legend.
std::string whatif_table(const sim::ScenarioReport& rep, const WhatIfView& v, bool wide)
{
  if (v.table_text) return v.table_text(rep, wide);
  WhatIfRows t = whatif_rows(rep, wide, v.name);
  if (t.rows.empty()) return "";
  auto x = [&](const Result& r) -> const sim::WhatIfResult& { return *r.whatif(v.name); };
  for (const WhatIfColumn& c : v.table) {
    if (c.show == Show::time)
      t.time(c.head, [&](const Result& r) { return x(r).is_null(c.field) ? std::nullopt : std::optional(x(r).number(c.field)); });
    else
      t.cols.push_back(t.text(c.head, c.show == Show::text, [&](const Result& r) { return whatif_cell(x(r), c, nullptr); }));
  }
  return "\n" + v.title(x(*t.rows.front())) + "\n" + render_columns(t.cols) + wrap_words(v.legend, 110);
}

}  // namespace

std::string whatif_tables(const sim::ScenarioReport& rep, bool wide)
{
  std::string out;
  for (const WhatIfView* v : whatif_views()) out += whatif_table(rep, *v, wide);
  return out;
}

}  // namespace ddpsim::app
