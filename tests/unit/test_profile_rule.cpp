// Issue 17: the one rule for a calibration profile's forced algorithm (sim/network/profile.hpp),
// used by `ddpsim collective`, `ddpsim expect` and scenarios.
#include <catch2/catch.hpp>

#include "sim/network/profile.hpp"

using namespace ddpsim;
using ddpsim::algo::CollectiveOp;

TEST_CASE("profile rule: a forced algorithm applies unless the caller named one or it cannot run the op")
{
  sim::Profile p = sim::default_profile("p4d.24xlarge");
  CHECK_FALSE(sim::profile_algorithm(p, false, CollectiveOp::all_reduce));  // "auto": NCCL's choice stands
  p.provenance.algorithm = "tree";
  CHECK(sim::profile_algorithm(p, false, CollectiveOp::all_reduce) == std::optional<std::string>("tree"));
  CHECK_FALSE(sim::profile_algorithm(p, true, CollectiveOp::all_reduce));        // the caller's name wins
  CHECK_FALSE(sim::profile_algorithm(p, false, CollectiveOp::reduce_scatter));   // tree has no reduce-scatter
  p.provenance.algorithm = "ring";
  CHECK(sim::profile_algorithm(p, false, CollectiveOp::all_gather) == std::optional<std::string>("ring"));
  p.provenance.algorithm = "CollNetChain";  // not a registered algorithm: nothing to force
  CHECK_FALSE(sim::profile_algorithm(p, false, CollectiveOp::all_reduce));
}
