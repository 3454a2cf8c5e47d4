// Text from users (file names, YAML keys and values, log lines) echoed back in messages and
// reports: every output line must stay one line and be valid UTF-8, whatever the input held.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ddpsim {

// True when `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF).
bool valid_utf8(std::string_view s);

// `s` with control characters escaped (\n, \r, \t, \xNN for the others and DEL) and every byte
// that is not part of a well-formed UTF-8 sequence written as \xNN. Valid multi-byte characters
// pass unchanged. A backslash is kept as is (paths on Windows-made files stay readable).
std::string printable(std::string_view s);

// The parts with `sep` between them ("a, b, c").
std::string join(const std::vector<std::string>& parts, const std::string& sep);

// The closest of `candidates` to `word` (edit distance, or `word` being a whole part of exactly
// one candidate), or "" when none is close: the "did you mean" of error messages.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);

// The parts of `s` between the separators ("a,,b" -> "a", "", "b"; a trailing separator ends the
// last part, as std::getline reads it).
std::vector<std::string> split(const std::string& s, char sep);

// `s` without leading and trailing spaces, tabs and carriage returns.
std::string trim(const std::string& s);

// One number through a printf format, e.g. fmt("%.2f ms", 14.6).
std::string fmt(const char* format, double v);

}  // namespace ddpsim
