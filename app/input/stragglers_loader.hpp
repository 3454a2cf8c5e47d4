// `stragglers:`: slow ranks or nodes, clock spread, per-step jitter, slow loaders (what-if;
// docs/whatif.md, sim/study/stragglers.hpp).
#pragma once

#include "app/input/yaml_reader.hpp"
#include "sim/study/stragglers.hpp"

namespace ddpsim::app {

// {steps_simulated: 20, seed: 1, ranks: {3: 1.5}, nodes: {1: 1.2}, slow_loader: {2: 3},
// clock_sigma: 0.02, jitter_sigma: 0.05}. Factors are >= 0.01 multiples of the nominal time.
void read_stragglers(Reader& r, const YAML::Node& n, sim::StragglerSpec& s);

}  // namespace ddpsim::app
