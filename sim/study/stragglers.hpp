// Stragglers and jitter: ranks that compute at different speeds, synchronised by the gradient
// reductions. K steps (steps_simulated) of the SAME engine step as the nominal one
// (sim/step/iteration.hpp), each with the ranks as rank classes of their own speed and start
// time, so every term of the step is in them: interference, bucket copies, launches, Horovod's
// cycle, ZeRO/FSDP gathers. A reduction starts when the last class has its gradients; a rank's
// step ends after its optimizer; it starts the next one then, or when its input pipeline has the
// next batch (a slow loader: batch s is ready at s x its loader period). Ranks with the same
// speed and start are one class.
//
// Factors: f_rs = fixed_r x clock_r x jitter_rs. fixed_r: chosen ranks' slowdown; clock_r: a
// per-rank constant (thermal/clock spread) drawn once, lognormal with median 1; jitter_rs: per rank
// and step, lognormal with mean 1. Draws come from core/random.hpp's SplitMix64 (same numbers
// everywhere): the clock factors rank by rank, then per step the jitter rank by rank.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/units.hpp"
#include "sim/step/iteration.hpp"

namespace ddpsim::sim {

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

// `setup` is the nominal step's (its classes are replaced; its loader becomes each rank's), and
// `nominal` its result (every factor 1).
StragglerResult simulate_stragglers(const IterationSetup& setup, const IterationResult& nominal, int ranks,
                                    int gpus_per_node, const StragglerSpec& spec);

}  // namespace ddpsim::sim
