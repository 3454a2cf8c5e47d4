// Turns the scenario's overhead knobs (OverheadSpec) into what one configuration's iteration
// charges: interference inputs, launch cost, DDP's bucket copies, the optimizer's memory traffic
// and Horovod's negotiation (issue 9, item 1; sources in docs/model.md "Per-step overheads").
#pragma once

#include "sim/step/iteration.hpp"
#include "sim/step/overheads.hpp"
#include "topology/topology.hpp"

namespace ddpsim::sim {

struct OverheadContext {
  Framework framework = Framework::pytorch_ddp;
  Optimizer optimizer = Optimizer::sgd;
  Precision precision = Precision::fp32;
  bool reduce_scatter = false;  // sharded frameworks reduce-scatter their gradients
  Time tcp_message{0};          // the host's cost per TCP message (training.gloo_step_overhead)
  bool gradient_as_bucket_view = false;  // DDP(gradient_as_bucket_view=True): no bucket copies
  bool channels_last = false;            // training.memory_format: channels_last
  bool apex_predivide = false;           // apex-ddp: gradient_predivide_factor != 1
};

// Fills setup.overheads, setup.optimizer and setup.framework.horovod_negotiation.
void apply_overheads(const OverheadSpec& spec, const OverheadContext& ctx, const Topology& topo, IterationSetup& setup);

}  // namespace ddpsim::sim
