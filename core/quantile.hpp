// The one quantile: linear interpolation between the closest ranks (Hyndman & Fan 1996, type 7;
// numpy's and R's default). Used for straggler step percentiles, Monte Carlo failure percentiles
// and calibrated prediction intervals.
#pragma once

#include <vector>

namespace ddpsim {

// q in [0, 1] of `sorted` (ascending, not empty).
double quantile_sorted(const std::vector<double>& sorted, double q);

// q in [0, 1] of `values` (any order, not empty).
double quantile(std::vector<double> values, double q);

}  // namespace ddpsim
