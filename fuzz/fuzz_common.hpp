// Shared by the fuzz targets: what counts as an acceptable outcome.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace ddpsim::fuzz {

// A finding: print it and abort so libFuzzer saves the input.
[[noreturn]] inline void finding(const std::string& what)
{
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::abort();
}

// Runs `f`; a UserError is the expected answer to bad input. Every other exception is a finding.
template <class F>
bool accepts(F&& f)
{
  try {
    f();
    return true;
  } catch (const UserError&) {
    return false;
  } catch (const std::exception& e) {
    finding(std::string("unexpected exception: ") + e.what());
  }
}

inline void check_time(double s, const char* what)
{
  if (!std::isfinite(s) || s < 0) finding(std::string(what) + " is " + std::to_string(s));
}

}  // namespace ddpsim::fuzz
