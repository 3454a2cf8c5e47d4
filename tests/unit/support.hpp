// Shared test fixtures: the built-in catalog, parsed once per test process.
#pragma once

#include "app/catalog_loader.hpp"

namespace ddpsim::test {

inline const app::Catalog& catalog()
{
  static const app::Catalog c = app::builtin_catalog();
  return c;
}

// A catalog instance by name (the test fails loudly on a typo: find() returns nullptr).
inline const InstanceSpec& instance(const char* name) { return catalog().at(name); }

}  // namespace ddpsim::test
