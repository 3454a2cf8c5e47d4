#include "sim/study/catalog.hpp"

#include "core/error.hpp"
#include "core/text.hpp"

namespace ddpsim::sim {

const InstanceSpec* Catalog::find(std::string_view name) const
{
  if (name.substr(0, 3) == "ml.") name.remove_prefix(3);
  for (const InstanceSpec& s : instances)
    if (s.name == name) return &s;
  return nullptr;
}

void Catalog::price_for(const std::string& name, InstanceSpec& spec) const
{
  if (name.rfind("ml.", 0) != 0) return;
  if (auto p = sagemaker.find(name); p != sagemaker.end()) {
    spec.price_usd_per_hour = p->second.usd_per_hour;
    spec.price_source = p->second.source;
  } else {
    spec.price_source = "no SageMaker rate for " + name + " in the catalog: the EC2 rate (" + spec.price_source +
                        "), lower than SageMaker bills; give the rate with pricing: in a plan";
  }
}

const InstanceSpec& Catalog::at(std::string_view name) const
{
  if (const InstanceSpec* s = find(name)) return *s;
  const std::string hint = closest(name, names());
  throw UserError("--instance: unknown instance \"" + std::string(name) + "\"" +
                  (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)") + "; `ddpsim catalog` lists them");
}

std::vector<std::string> Catalog::names() const
{
  std::vector<std::string> out;
  for (const InstanceSpec& s : instances) out.push_back(s.name);
  return out;
}

std::vector<AssumedRange> Catalog::assumed_for(std::string_view instance) const
{
  std::vector<AssumedRange> out;
  for (const AssumedRange& a : assumed)
    for (const std::string& i : a.instances)
      if (find(i) == find(instance)) {
        out.push_back(a);
        break;
      }
  return out;
}

}  // namespace ddpsim::sim
