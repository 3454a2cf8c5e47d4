// rc::prop with a case count and a fixed seed (RC_PARAMS can still override the seed): the same
// cases on every run, and few enough of them that a file takes seconds. Shared by the property
// tests (test_properties.cpp) and the invariants (test_invariants.cpp).
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <rapidcheck.h>
#include <sstream>
#include <utility>

namespace ddpsim::test {

template <class Testable>
void property(const char* description, int cases, std::uint64_t seed, Testable&& testable)
{
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = cases;
  if (std::getenv("RC_PARAMS") == nullptr) params.seed = seed;
  rc::detail::TestMetadata meta;
  meta.id = description;
  meta.description = description;
  const rc::detail::TestResult result = rc::detail::checkTestable(std::forward<Testable>(testable), meta, params);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  INFO(description << ": " << message.str());
  CHECK(result.template is<rc::detail::SuccessResult>());
}

}  // namespace ddpsim::test
