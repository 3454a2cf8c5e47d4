// Stragglers and jitter: ranks that compute at different speeds, synchronised by the gradient
// all-reduces. A collective starts when the LAST rank has its gradients ready, so for bucket b in
// step s:  ready_b = max over ranks r of (start_r + f_rs x offset_b), where offset_b is when the
// nominal rank has bucket b ready (time since its step start) and f_rs its compute factor. The
// buckets' all-reduces run in order on one stream with their nominal durations (stragglers change
// when a collective starts, not how long its bytes take). A rank's step ends after its optimizer,
// which waits for its own backward and the last all-reduce; the next step starts then, or when its
// input pipeline has the next batch (a slow loader). O(ranks x buckets) per step.
//
// Factors: f_rs = fixed_r x clock_r x jitter_rs. fixed_r: chosen ranks' slowdown; clock_r: a
// per-rank constant (thermal/clock spread) drawn once, lognormal with median 1; jitter_rs: per rank
// and step, lognormal with mean 1. Draws come from a splitmix64 stream (same numbers everywhere).
// Times in picoseconds (Time) in, seconds out.
//
// As a what-if (whatif.hpp, section `stragglers:`, app/whatifs/stragglers.cpp): run beside each
// configuration's nominal step; its result fields are ranks, steps_simulated, nominal_step_s,
// step_s (one per simulated step), step_mean_s, step_p50_s, step_p99_s, slowdown,
// sync_wait_mean_s, sync_wait_max_s and total_time_s (start-up + the job's steps x step_mean_s).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "core/units.hpp"
#include "sim/study/whatifs/whatif.hpp"

namespace ddpsim::sim {

// One nominal rank's iteration, as the iteration simulation gives it.
struct NominalStep {
  Time compute{0};                    // forward + backward (all micro-steps)
  std::vector<Time> bucket_ready;     // per bucket, from the step's start, in launch order
  std::vector<Time> bucket_duration;  // per bucket all-reduce duration
  Time optimizer{0};                  // scaled by the rank's factor
  Time overhead{0};                   // framework per-step overhead, not scaled
  Time loader{0};                     // input pipeline time per step (0: never bounds)
};

struct StragglerSpec {
  std::map<int, double> rank_factor;  // rank -> compute slowdown (1.5 = 50% slower)
  std::map<int, double> node_factor;  // node -> slowdown of all its ranks
  std::map<int, double> node_loader;  // node -> its loader takes this x nominal per step
  double clock_sigma = 0;             // per-rank constant, lognormal sigma (0: none)
  double jitter_sigma = 0;            // per rank and step, lognormal sigma (0: none)
  int steps = 8;                      // steps simulated (steps_simulated)
  std::uint64_t seed = 1;
};

struct StragglerResult {
  int ranks = 0, steps = 0;
  double nominal_step_s = 0;          // the same model with every factor 1
  std::vector<double> step_s;         // per simulated step: between consecutive last-rank ends
  double step_mean_s = 0, step_p50_s = 0, step_p99_s = 0;
  double slowdown = 1;                // step_mean / nominal
  // Sync wait: per rank and step, how long its last bucket waited for the slowest rank's
  // gradients (ready_last - own ready_last); mean over ranks and steps, and the largest.
  double sync_wait_mean_s = 0, sync_wait_max_s = 0;
};

StragglerResult simulate_stragglers(const NominalStep& nominal, int ranks, int gpus_per_node, const StragglerSpec& spec);

// Where it plugs in: the nominal step of a simulated iteration (sim/step/iteration.hpp): the
// buckets' ready times and durations, forward + backward, optimizer, overhead; `loader` is the
// setup's input-pipeline time per step.
struct IterationResult;
NominalStep nominal_step(const IterationResult& it, Time loader);

std::shared_ptr<const WhatIf> stragglers_whatif(const StragglerSpec& spec);

}  // namespace ddpsim::sim
