// `ddpsim collective --explain` (CollectiveModel::explain): the candidates are the choices price()
// weighs, each priced exactly as naming it would price it, and the one price() runs is among them:
// the smallest NCCL estimate where NCCL chooses, the tuner's pick where aws-ofi-nccl chooses.
#include <algorithm>
#include <catch2/catch.hpp>

#include "support.hpp"

#include "sim/network/analytical.hpp"
#include "sim/network/collective_model.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

TEST_CASE("explain: every candidate is priced as naming it would be, and the choice is among them")
{
  for (const auto& [name, nodes] : {std::pair{"p5.48xlarge", 2}, std::pair{"p5.48xlarge", 8}, std::pair{"p4de.24xlarge", 2},
                                    std::pair{"dgx1-v100", 1}, std::pair{"p3.16xlarge", 4}}) {
    const InstanceSpec& inst = test::instance(name);
    const Topology topo(inst, nodes, inst.gpus);
    AnalyticalBackend net(topo);
    const CollectiveModel model(topo, CollectiveOptions{});
    int tuner = 0;
    for (std::uint64_t b = 8; b <= 4 * GiB; b *= 16) {
      INFO(name << " x" << nodes << ", " << b << " B");
      const PricedCollective run = model.price(algo::CollectiveOp::all_reduce, Bytes{b});
      const CollectiveModel::Explanation why = model.explain(algo::CollectiveOp::all_reduce, Bytes{b});
      REQUIRE(!why.candidates.empty());
      const auto chosen = std::find_if(why.candidates.begin(), why.candidates.end(), [&](const PricedCollective& c) {
        return c.algorithm == run.algorithm && c.protocol == run.protocol;
      });
      REQUIRE(chosen != why.candidates.end());
      CHECK(time_alone_us(*chosen, net) == Approx(time_alone_us(run, net)));
      if (why.chooser.rfind("NCCL's estimate", 0) == 0) {
        for (const PricedCollective& c : why.candidates) CHECK(chosen->nccl_estimate_us <= c.nccl_estimate_us);
      } else {
        CHECK(why.chooser == "aws-ofi-nccl's tuner plugin (its region tables)");
        ++tuner;
      }
      for (const PricedCollective& c : why.candidates) {  // each as `--algorithm A --proto P` prices it
        CollectiveOptions o;
        o.algorithm = std::string(c.algorithm->name());
        o.protocol = c.protocol;
        o.tuner = algo::Tuner::nccl;
        const CollectiveModel named(topo, o);
        CHECK(time_alone_us(named.price(algo::CollectiveOp::all_reduce, Bytes{b}), net) == Approx(time_alone_us(c, net)));
      }
    }
    // aws-ofi-nccl's tuner has regions for p5 beyond two nodes only (algorithms/aws_ofi_tuner.hpp).
    CHECK((tuner > 0) == (std::string(name) == "p5.48xlarge" && nodes > 2));
  }
}
