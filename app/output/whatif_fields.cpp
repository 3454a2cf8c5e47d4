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
  return std::visit([](const auto& value) { return Json(value); }, *v);
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
      for (const std::string& k : keys) o[k] = whatif_json(*x, k);
      return o;
    };
    const auto after = std::find_if(fields.begin(), fields.end(), [&](const ResultField& f) { return f.name == v->json_after; });
    fields.insert(after == fields.end() ? fields.end() : after + 1, ResultField{name, "", json});
    for (const WhatIfColumn& c : v->csv) {
      auto cell = [name, c](const R& r) {
        const sim::WhatIfResult* x = r.whatif(name);
        return !x ? std::string() : c.show == Show::integer ? std::to_string(x->count(c.field)) : fmt("%.9g", x->number(c.field));
      };
      fields.push_back({c.head, c.show == Show::time ? "s" : "", nullptr, c.place, cell, CsvGroup::whatif, name});
    }
  }
}

}  // namespace ddpsim::app
