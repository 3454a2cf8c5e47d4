// Issue 17: collectives as engine participants. Sharded frameworks' parameter gathers run on a
// stream inside the step (a layer waits for its gather, the gradients' ready times follow), the
// after-step gathers follow the optimizer, and a link-sharing backend reaches the fixed point.
#include <catch2/catch.hpp>

#include "sim/network/analytical.hpp"
#include "sim/step/iteration.hpp"
#include "toy_step.hpp"

using namespace ddpsim;
using namespace ddpsim::sim;

namespace {
// Every collective (reduction or gather) takes 150 on its stream.
struct Toy : test::ToyStep {
  Toy() : ToyStep(Time{150}) {}
};
}  // namespace

TEST_CASE("FSDP: each layer waits for its gather, and its gradients are ready that much later", "[step]")
{
  Toy t;
  t.s.framework.framework = Framework::fsdp;
  t.s.gathers = parameter_gathers(t.m, Framework::fsdp, 4, Bytes{1024});
  REQUIRE(t.s.gathers.size() == 4);
  const IterationResult r = simulate_iteration(t.s);
  // Forward: gathers 0-150 and 150-300; l0 150-250, l1 300-400. Backward from 400: gathers
  // 400-550 (l1) and 550-700 (l0); l1 550-750 (bucket 0: 750-900), l0 750-950 (bucket 1:
  // 950-1100); optimizer 1100-1150.
  REQUIRE(r.buckets.size() == 2);
  CHECK(r.buckets[0].ready == Time{750});
  CHECK(r.buckets[1].ready == Time{950});
  CHECK(r.step == Time{1150});
  CHECK(r.gather_exposed == Time{150 + 50 + 150});
  CHECK(r.exposed_comm == Time{150 + 350});
  CHECK(r.gather_busy == Time{600});
  CHECK(r.comm_busy == Time{900});
  CHECK(r.network_rounds >= 2);  // the gathers' timings moved the releases: more than one batch
}

TEST_CASE("ZeRO-2: the updated parameters are gathered after the optimizer", "[step]")
{
  Toy t;
  t.s.framework.framework = Framework::zero2;
  t.s.gathers = parameter_gathers(t.m, Framework::zero2, 4, Bytes{4});  // two 4-byte gathers
  REQUIRE(t.s.gathers.size() == 2);
  const IterationResult r = simulate_iteration(t.s);
  // DDP-like step to 800 (buckets 400-550, 600-750; optimizer 750-800), then gathers 800-1100.
  CHECK(r.step == Time{1100});
  CHECK(r.gather_exposed == Time{300});
  CHECK(r.class_end.front() == Time{1100});
}

TEST_CASE("a backend that shares nothing times each collective at its release, as one batch would", "[step]")
{
  const InstanceSpec& inst = test::instance("p4d.24xlarge");
  const Topology topo(inst, 2, 8, FabricSpec{});
  AnalyticalBackend analytical(topo);
  const CollectiveModel model(topo, CollectiveOptions{});
  Toy t;
  t.s.collective = [&](Bytes b) { return model.price(algo::CollectiveOp::all_reduce, Bytes{b.n * 1000000}); };
  t.s.network = &analytical;
  const IterationResult alone = simulate_iteration(t.s);
  std::vector<CollectiveJob> jobs;
  for (const BucketTiming& b : alone.buckets)
    jobs.push_back(CollectiveJob{b.ready, 0, model.price(algo::CollectiveOp::all_reduce, Bytes{b.bytes.n * 1000000}).schedule, ""});
  const std::vector<JobTiming> batch = analytical.run(jobs);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CHECK(alone.buckets[i].start == batch[i].start);
    CHECK(alone.buckets[i].end == batch[i].end);
  }
}
