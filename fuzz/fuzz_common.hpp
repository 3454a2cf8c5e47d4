// Shared by the fuzz targets: what counts as an acceptable outcome.
#pragma once

#include <cctype>
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

// True when `text` holds `w` (lower case) at `at` as a whole word, in any case.
inline bool word_at(const std::string& text, std::size_t at, const char* w)
{
  const std::size_t n = std::char_traits<char>::length(w);
  if (text.size() < at + n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if ((text[at + i] | 0x20) != w[i]) return false;
  const bool before = at == 0 || !std::isalpha(static_cast<unsigned char>(text[at - 1]));
  const bool after = at + n == text.size() || !std::isalpha(static_cast<unsigned char>(text[at + n]));
  return before && after;
}

inline bool holds_word(const std::string& text, const char* w)
{
  for (std::size_t at = 0; (at = text.find_first_of("iInN", at)) != std::string::npos; ++at)
    if (word_at(text, at, w)) return true;
  return false;
}

// A rendered report (table, CSV, JSON): no printed inf or nan (issue 21). `input` is the text the
// report was made from: a word it holds itself is the user's text printed back (a plan named
// "NAN", fuzz_plan 2026-12-07), not a number, so it is not a finding.
inline void check_printed(const std::string& text, const std::string& input)
{
  for (const char* w : {"inf", "nan", "infinity"}) {
    if (holds_word(input, w)) continue;
    for (std::size_t at = 0; (at = text.find_first_of("iInN", at)) != std::string::npos; ++at)
      if (word_at(text, at, w)) finding("a printed non-finite number near: " + text.substr(at > 40 ? at - 40 : 0, 80));
  }
}

}  // namespace ddpsim::fuzz
