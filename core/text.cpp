#include "core/text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ddpsim {
namespace {

// Length of the well-formed UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
std::size_t sequence_length(std::string_view s, std::size_t i)
{
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte (RFC 3629 table)
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

bool valid_utf8(std::string_view s)
{
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string printable(std::string_view s)
{
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = sequence_length(s, i);
    if (n > 1) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    if (n == 1 && c >= 0x20 && c != 0x7F) out.push_back(static_cast<char>(c));
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
      out += buf;
    }
    ++i;
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep)
{
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

std::string trim(const std::string& s)
{
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string join(const std::vector<std::string>& parts, const std::string& sep)
{
  std::string out;
  for (const std::string& s : parts) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string fmt(const char* format, double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates)
{
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0u : 1u)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  // Issue 20: a word that is a whole part of one candidate ("ddp" of "pytorch-ddp", "p4d" of
  // "p4d.24xlarge") means that candidate, however far the spelling.
  auto is_sep = [](char c) { return c == '.' || c == '-' || c == '_'; };
  std::vector<std::string> parts;
  for (const std::string& c : candidates)
    for (std::size_t at = c.find(word); word.size() >= 2 && at != std::string::npos; at = c.find(word, at + 1))
      if ((at == 0 || is_sep(c[at - 1])) && (at + word.size() == c.size() || is_sep(c[at + word.size()])) && c != word) {
        parts.push_back(c);
        break;
      }
  // Several: the one it begins ("p4d" of "p4d.24xlarge", not of "ml.p4d.24xlarge"), else the
  // first in the caller's order ("ddp": pytorch-ddp before apex-ddp).
  for (const std::string& p : parts)
    if (p.rfind(word, 0) == 0) return p;
  if (!parts.empty()) return parts.front();
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    std::size_t d = distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace ddpsim
