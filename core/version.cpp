#include "core/version.hpp"

#include <cstdio>

namespace ddpsim {

bool parse_version(const std::string& text, Version& out)
{
  int v[3] = {0, 0, 0};
  int n = 0;
  std::size_t i = 0;
  while (n < 3 && i < text.size()) {
    if (text[i] < '0' || text[i] > '9') return false;
    int x = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && x < 100000) x = x * 10 + (text[i++] - '0');
    v[n++] = x;
    if (i < text.size() && text[i] == '.') ++i;
    else break;
  }
  // A release suffix ("-1", "+cuda12.2", "ms1") may follow the numbers.
  if (n < 2 || (i < text.size() && text[i] != '-' && text[i] != '+' && text[i] != 'm')) return false;
  out = Version{v[0], v[1], v[2]};
  return true;
}

std::string to_string(const Version& v)
{
  char b[48];
  std::snprintf(b, sizeof b, "%d.%d.%d", v.major, v.minor, v.patch);
  return b;
}

}  // namespace ddpsim
