// A two-layer toy step for the step tests: one 1-parameter layer per bucket, forward 100 and
// backward 200 per layer, optimizer 50; every collective takes `each` on its stream.
#pragma once

#include "algorithms/registry.hpp"
#include "sim/step/iteration.hpp"
#include "support.hpp"

namespace ddpsim::test {

inline sim::PricedCollective ring_of_fixed_time(Bytes)
{
  sim::PricedCollective p;  // the fixed backend gives it its time
  p.algorithm = &algo::Registry::instance().get("ring");
  return p;
}

struct ToyStep {
  sim::ModelSpec m{"toy2", {}};
  FixedBackend net;
  sim::IterationSetup s;
  explicit ToyStep(Time each) : net(each)
  {
    for (int i = 0; i < 2; ++i) m.layers.push_back(sim::Layer{"l" + std::to_string(i), {{"w", 1}}, 0, 0});
    s.model = &m;
    s.times.forward = {Time{100}, Time{100}};
    s.times.backward = {Time{200}, Time{200}};
    s.times.forward_total = Time{200};
    s.times.backward_total = Time{400};
    s.framework.first_bucket_cap = s.framework.bucket_cap = Bytes{4};
    s.optimizer = Time{50};
    s.collective = ring_of_fixed_time;
    s.price = [](algo::CollectiveOp, Bytes b) { return ring_of_fixed_time(b); };
    s.network = &net;
  }
};

}  // namespace ddpsim::test
