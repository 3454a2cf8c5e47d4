#include "sim/study/whatifs/whatif.hpp"

#include "core/error.hpp"
#include "sim/study/scenario.hpp"

namespace ddpsim::sim {
namespace {

const WhatIfValue& get(const WhatIfResult& r, std::string_view field)
{
  const WhatIfValue* v = r.find(field);
  DDPSIM_CHECK(v, "what-if " + r.name + " has no field " + std::string(field));
  return *v;
}

template <class T>
const T& as(const WhatIfResult& r, std::string_view field)
{
  const T* v = std::get_if<T>(&get(r, field));
  DDPSIM_CHECK(v, "what-if " + r.name + ": field " + std::string(field) + " has another type");
  return *v;
}

}  // namespace

const WhatIfValue* WhatIfResult::find(std::string_view field) const
{
  for (const WhatIfField& f : fields)
    if (f.name == field) return &f.value;
  return nullptr;
}

double WhatIfResult::number(std::string_view field) const
{
  const WhatIfValue& v = get(*this, field);
  if (const auto* n = std::get_if<std::int64_t>(&v)) return static_cast<double>(*n);
  return as<double>(*this, field);
}

bool WhatIfResult::is_null(std::string_view field) const { return std::holds_alternative<std::monostate>(get(*this, field)); }

std::int64_t WhatIfResult::count(std::string_view field) const { return as<std::int64_t>(*this, field); }
const std::vector<double>& WhatIfResult::series(std::string_view field) const { return as<std::vector<double>>(*this, field); }
const std::string& WhatIfResult::text(std::string_view field) const { return as<std::string>(*this, field); }

void run_whatifs(const WhatIfs& whatifs, WhatIf::Stage stage, const WhatIfInput& in, ConfigResult& row)
{
  for (const auto& w : whatifs)
    if (w->stage() == stage) {
      WhatIfResult x = w->run(in);
      DDPSIM_CHECK(x.name == w->name(), "what-if " + std::string(w->name()) + " named its result otherwise");
      row.warnings.insert(row.warnings.end(), x.warnings.begin(), x.warnings.end());
      x.warnings.clear();
      row.whatifs.push_back(std::move(x));
    }
}

const WhatIfResult* find_whatif(const std::vector<WhatIfResult>& results, std::string_view name)
{
  for (const WhatIfResult& r : results)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace ddpsim::sim
