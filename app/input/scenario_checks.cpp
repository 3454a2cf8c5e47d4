#include "app/input/scenario_checks.hpp"

#include <algorithm>
#include <string>

namespace ddpsim::app {

void check_cross_fields(Reader& r, const YAML::Node& root, const sim::ScenarioSpec& s)
{
  // Gloo implements ring and halving-doubling all-reduces on host ranks (gloo/allreduce_ring.h,
  // allreduce_halving_doubling.h); NCCL's, SMDDP's and the switches' algorithms do not apply
  // (issue 21: herring with gloo ended in an internal error, "route from a device to itself").
  const std::string& algorithm = s.communication.algorithm;
  const bool gloo = s.training.framework == sim::Framework::gloo ||
                    std::count(s.training.compare.begin(), s.training.compare.end(), sim::Framework::gloo) > 0;
  if (gloo && algorithm != "auto" && algorithm != "ring" && algorithm != "rhd")
    r.error(root["communication"]["algorithm"], "communication.algorithm",
            "\"" + algorithm + "\" does not run on Gloo, which implements ring and rhd (halving-doubling) only");
}

}  // namespace ddpsim::app
