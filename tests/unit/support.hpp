// Shared test fixtures: the built-in catalog, parsed once per test process.
#pragma once

#include <stdexcept>

#include "app/input/catalog_loader.hpp"
#include "core/version.hpp"
#include "sim/network/network.hpp"

namespace ddpsim::test {

inline const app::Catalog& catalog()
{
  static const app::Catalog c = app::builtin_catalog();
  return c;
}

// A catalog instance by name (the test fails loudly on a typo: find() returns nullptr).
inline const InstanceSpec& instance(const char* name) { return catalog().at(name); }

// A release written as text ("2.18.1"); a typo throws.
inline Version version(const char* text)
{
  Version out;
  if (!parse_version(text, out)) throw std::invalid_argument(std::string("not a version: ") + text);
  return out;
}

// A backend whose every collective takes `each`, one after another on one stream: for testing the
// iteration's and the frameworks' bookkeeping without a network model.
class FixedBackend final : public sim::NetworkBackend {
 public:
  explicit FixedBackend(Time each) : each_(each) {}
  std::string_view name() const override { return "fixed"; }
  std::vector<sim::JobTiming> run(const std::vector<sim::CollectiveJob>& jobs) override
  {
    std::vector<sim::JobTiming> out;
    Time free{0};
    for (const auto& j : jobs) {
      const Time start = max(j.ready, free);
      out.push_back({start, start + each_});
      free = start + each_;
    }
    return out;
  }
  Time run_steps(const algo::StepSchedule&) override { return each_; }

 private:
  Time each_;
};

}  // namespace ddpsim::test
