// One data-parallel training iteration (one optimizer step), run on the discrete-event engine.
//
// Ranks that behave alike are folded into one representative per rank class (a homogeneous job
// has one class; a straggler makes a second; every rank may be its own class). Per class, a
// compute stream runs the k-1 gradient-accumulation micro-steps (DDP's no_sync(): no
// communication), the last forward, then backward layer by layer in reverse, each layer an
// event. A layer's gradients are ready for the collective when every class has produced them;
// the framework's reducer (sim/step/reducers.hpp, a process on the same engine: DDP buckets,
// Horovod's background cycle, SMDDP's fusion buffer) releases reductions; each is priced by the
// CollectiveModel and run in release order on the communication stream by the network backend,
// overlapping the rest of backward. A class's optimizer starts when its backward and every
// reduction are done, then the framework's fixed per-step overhead (Lightning). The input
// pipeline prefetches the next step's batches in parallel; when loading them takes longer than
// the step, the step waits for it (steady state).
//
// What real jobs pay on top (IterationOverheads, sim/step/overheads.hpp, docs/model.md):
// backward slowed while a collective runs (SMs and HBM taken by its kernels; the releases move
// to when their gradients exist on the slowed backward: sim/step/interference.hpp), each
// collective's launch, DDP's copies of the gradients into buckets (during backward) and out of
// them (before the optimizer).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "sim/engine/timeline.hpp"
#include "sim/network/collective_model.hpp"
#include "sim/step/buckets.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/frameworks.hpp"
#include "sim/step/overheads.hpp"

namespace ddpsim::sim {

// Ranks that behave alike.
struct RankClass {
  int ranks = 1;               // how many ranks it stands for
  double compute_scale = 1.0;  // their forward/backward/optimizer times relative to the model's
  Time loader{0};              // their input pipeline's time per step (0: never the bound)
};

struct IterationSetup {
  const ModelSpec* model = nullptr;
  LayerTimes times;
  FrameworkOptions framework;
  int accum_steps = 1;    // micro-steps per optimizer step (training.grad_accum_steps)
  Time optimizer{0};
  Time step_overhead{0};  // the framework's own fixed cost per optimizer step (Lightning)
  Time loader{0};         // input pipeline time per optimizer step, for the default class
  // Share of the loader's throughput that network threads take while collectives run
  // (loader_share_lost, sim/step/loader.hpp): the loader takes comm_busy x this longer.
  double loader_lost_while_comm = 0;
  // The framework's reduction of `bytes`, priced by the CollectiveModel.
  std::function<PricedCollective(Bytes)> collective;
  NetworkBackend* network = nullptr;
  std::vector<RankClass> classes;  // empty: one class {all ranks, scale 1, `loader`}
  IterationOverheads overheads;
};

struct IterationResult {
  Time step{0};          // iteration time in steady state
  Time forward{0}, backward{0}, optimizer{0};  // of the slowest class, summed over micro-steps
  Time overhead{0};      // framework per-step overhead
  Time comm_busy{0};     // sum of the reduction durations
  Time exposed_comm{0};  // communication not hidden behind the slowest class's backward
  Time loader_wait{0};   // time the step waits for input
  Time sync_wait{0};     // how much later the slowest class's last gradients are ready than the fastest's
  Time interference{0};  // backward of the slowest class lengthened by overlapping collectives
  Time bucket_copy{0};   // DDP's copies into buckets (in backward) and out of them (before the optimizer)
  Time launch{0};        // launch cost of all collectives (hidden where they overlap backward)
  Time negotiation{0};   // Horovod: negotiation of all cycles (hidden where they overlap backward)
  std::vector<BucketTiming> buckets;
  std::uint64_t events = 0;  // engine events processed
};

IterationResult simulate_iteration(const IterationSetup& setup, Timeline* timeline = nullptr);

}  // namespace ddpsim::sim
