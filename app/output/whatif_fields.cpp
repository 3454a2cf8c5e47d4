// The what-ifs' result fields (app/whatifs/whatif_view.hpp) in the one field list (result_fields.hpp).
#include <algorithm>

#include "app/output/result_fields.hpp"
#include "app/whatifs/whatif_view.hpp"
#include "core/error.hpp"
#include "app/output/text_format.hpp"

namespace ddpsim::app {

Json whatif_json(const sim::WhatIfResult& x, const std::string& field)
{
  const sim::WhatIfValue* v = x.find(field);
  DDPSIM_CHECK(v, "what-if " + x.name + " has no field " + field);
  return std::visit([](const auto& value) {
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::monostate>) return Json(nullptr);
    else return Json(value);
  }, *v);
}

std::string whatif_cell(const sim::WhatIfResult& x, const WhatIfColumn& c, const std::function<std::string(double)>& time)
{
  if (!x.find(c.field) || x.is_null(c.field)) return c.null_text;
  switch (c.show) {
    case Show::time: return time(x.number(c.field));
    case Show::integer: return std::to_string(x.count(c.field));
    case Show::fixed: return fmt(c.format.c_str(), x.number(c.field) * c.times / c.over);
    case Show::text: return x.text(c.field);
  }
  return "";
}

// Each what-if's JSON object, after the field its view names, and its CSV columns (app/whatifs/).
void add_whatif_fields(std::vector<ResultField>& fields)
{
  using R = sim::ConfigResult;
  const Json absent(Json::value_t::discarded);
  for (const WhatIfView* v : whatif_views()) {
    const std::string name = v->name;
    auto json = [name, keys = v->json, absent](const R& r) {
      const sim::WhatIfResult* x = r.whatif(name);
      if (!x) return absent;
      Json o = Json::object();
      for (const std::string& k : keys)
        if (x->find(k)) {
          const auto dot = k.find('.');  // "a.b": key b of the object a
          (dot == std::string::npos ? o[k] : o[k.substr(0, dot)][k.substr(dot + 1)]) = whatif_json(*x, k);
        }
      return o;
    };
    const auto after = std::find_if(fields.begin(), fields.end(), [&](const ResultField& f) { return f.name == v->json_after; });
    fields.insert(after == fields.end() ? fields.end() : after + 1, ResultField{name, "", json});
    for (const WhatIfColumn& c : v->csv) {
      auto cell = [name, c](const R& r) {
        const sim::WhatIfResult* x = r.whatif(name);
        if (!x || !x->find(c.field) || x->is_null(c.field)) return std::string();
        return c.show == Show::integer || c.show == Show::text ? whatif_cell(*x, c, nullptr) : fmt("%.9g", x->number(c.field));
      };
      fields.push_back({c.head, c.show == Show::time ? "s" : "", nullptr, c.place, cell, CsvGroup::whatif, name});
    }
  }
}

}  // namespace ddpsim::app
