// A calibration profile: the cost parameters fitted for one instance type, with where they came
// from. Scenarios and `ddpsim collective` use it instead of the catalog's defaults.
#pragma once

#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace ddpsim::calibrate {

struct Provenance {
  std::vector<std::string> inputs;  // files the fit used
  std::string nccl_version;         // when the logs say
  std::string method;               // what was fitted, e.g. "least squares: alpha, beta per hop class"
};

struct Profile {
  std::string instance;
  algo::LatencyParams latency;  // software latency terms
  double intra_bw_efficiency = 1.0;  // achieved / line-rate bandwidth inside a node
  double inter_bw_efficiency = 1.0;  // achieved / line-rate bandwidth across nodes
  Provenance provenance;
};

// The profile implied by the catalog alone: no software latency, line-rate links.
Profile default_profile(const std::string& instance);

}  // namespace ddpsim::calibrate
