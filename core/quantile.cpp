#include "core/quantile.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace ddpsim {

double quantile_sorted(const std::vector<double>& sorted, double q)
{
  DDPSIM_CHECK(!sorted.empty() && q >= 0 && q <= 1, "quantile of an empty list or q outside [0, 1]");
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double quantile(std::vector<double> values, double q)
{
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, q);
}

}  // namespace ddpsim
