// A four-layer toy model for hand-computed iteration timelines (test_overhead_charges.cpp,
// test_cooperative_kernels.cpp).
#pragma once

#include <string>

#include "algorithms/registry.hpp"
#include "sim/step/iteration.hpp"

namespace ddpsim::test {

using sim::IterationSetup;
using sim::Layer;
using sim::ModelSpec;
using sim::NetworkBackend;
using sim::PricedCollective;

// Four layers of one 1000-element fp32 tensor: one 4000-byte bucket per layer. Forward 100 us and
// backward 200 us per layer, optimizer 50 us: gradients ready at 600, 800, 1000, 1200 us.
struct Toy {
  ModelSpec model{"toy", {}};
  Toy()
  {
    for (int i = 0; i < 4; ++i) model.layers.push_back(Layer{"l" + std::to_string(i), {{"w", 1000}}, 0, 0});
  }
  IterationSetup setup(NetworkBackend* net) const
  {
    IterationSetup s;
    s.model = &model;
    for (std::size_t i = 0; i < 4; ++i) {
      s.times.forward.push_back(Time::from_us(100));
      s.times.backward.push_back(Time::from_us(200));
    }
    s.times.forward_total = Time::from_us(400);
    s.times.backward_total = Time::from_us(800);
    s.framework.first_bucket_cap = s.framework.bucket_cap = Bytes{4000};
    s.optimizer = Time::from_us(50);
    s.collective = [](Bytes) {
      PricedCollective p;
      p.algorithm = &algo::Registry::instance().get("ring");
      p.channels = 1;
      return p;
    };
    s.network = net;
    return s;
  }
};

}  // namespace ddpsim::test
