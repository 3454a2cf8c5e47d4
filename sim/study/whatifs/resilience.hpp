// Failures and checkpointing: the expected wall-clock time of a training job on hardware that
// fails. Nodes fail independently at a constant rate (exponential inter-failure times), so a job
// on N nodes fails every M = node_mtbf / N on average. The job saves a checkpoint (blocking) every
// tau seconds of work; a failure loses the work since the last completed checkpoint and costs a
// restart R = re-queue + restart + checkpoint read, during which a failure restarts it again.
// Closed forms (docs/whatif.md): Young (1974) tau = sqrt(2 delta M); Daly (2006) higher-order
// tau; Daly's expected wall time T = M e^{R/M} (e^{(tau+delta)/M} - 1) W / tau. A seeded Monte
// Carlo of the same process gives p10/p50/p90. All times in seconds, sizes in bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "sim/study/whatifs/whatif.hpp"
#include "sim/step/compute.hpp"
#include "sim/step/model.hpp"
#include "topology/instance.hpp"

namespace ddpsim::sim {

// A checkpoint store (topology/catalog/storage.yaml). Rates are bytes per second. A client is one
// node writing or reading; `aggregate` caps all clients together (0 = no cap of the store's own).
struct StorageSpec {
  std::string name;                 // nvme, fsx, s3
  Bandwidth write_per_client, read_per_client;
  Bandwidth write_aggregate, read_aggregate;
  bool survives_node_loss = true;   // false for instance-store NVMe: it goes with the node
  std::string source;
};

enum class Writers { rank0, every_node };

struct CheckpointSpec {
  std::optional<Time> every;        // nullopt: Daly's optimum ("auto")
  StorageSpec storage;
  Writers writers = Writers::rank0; // DDP: rank 0 torch.save()s the whole state; every_node: sharded
  std::optional<Bytes> size;        // overrides the size computed from the model and optimizer
};

struct ResilienceSpec {
  double node_mtbf_s = 0;           // mean time between failures of one node (0: from gpu_mtbf_s)
  double gpu_mtbf_s = 0;            // per GPU: node MTBF = gpu_mtbf_s / GPUs per node
  std::string mtbf_source;          // where the MTBF comes from (a citation or "scenario")
  CheckpointSpec checkpoint;
  Time restart{0};                  // process-group start, model load (without the checkpoint read)
  Time requeue{0};                  // scheduler: replace the node, re-queue the job
  int monte_carlo_trials = 0;       // 0: closed form only
  std::uint64_t seed = 1;
};

// Llama 3 (Grattafiori et al., "The Llama 3 Herd of Models", arXiv 2407.21783, section 3.3.4,
// Table 5): 419 unexpected interruptions in a 54-day snapshot of pre-training on 16,384 H100s,
// i.e. one per 54 x 24 x 16384 / 419 GPU-hours per GPU.
constexpr double kLlama3GpuMtbfHours = 54.0 * 24.0 * 16384.0 / 419.0;

struct ResilienceResult {
  double node_mtbf_s = 0;
  double job_mtbf_s = 0;            // M = node MTBF / nodes
  std::uint64_t checkpoint_bytes = 0;
  double checkpoint_write_s = 0;    // delta
  double checkpoint_read_s = 0;
  double restart_s = 0;             // R = requeue + restart + read
  double young_interval_s = 0;
  double daly_interval_s = 0;
  double interval_s = 0;            // tau used (given or Daly's)
  double work_s = 0;                // W: failure-free training time (steps x step)
  double expected_time_s = 0;       // Daly's closed form, excluding start-up
  double expected_failures = 0;     // expected_time / M
  double checkpoint_overhead_s = 0; // W / tau x delta
  double lost_s = 0;                // expected_time - W - checkpoint overhead: rework + restarts
  double efficiency = 0;            // W / expected_time (effective training time ratio)
  bool storage_survives = true;
  std::string storage;
  std::string mtbf_source;
  double expected_total_time_s = 0; // start-up + expected_time_s (comparable to total_time_s)
  double expected_cost_usd = 0;     // instances x (start-up + expected time) x price
  // Monte Carlo (when trials > 0): wall time excluding start-up.
  int trials = 0;
  double mc_mean_s = 0, mc_p10_s = 0, mc_p50_s = 0, mc_p90_s = 0;
};

// Bytes of model and optimizer state in one full checkpoint: weights in the training precision
// plus, under fp16/bf16, an fp32 master copy; optimizer states in fp32 (Adam: 2 per parameter;
// SGD with momentum: 1). See docs/whatif.md for the accounting (ZeRO paper, section 3.1).
Bytes checkpoint_bytes(std::uint64_t parameters, Precision precision, Optimizer optimizer);

// Young's first-order optimum sqrt(2 delta M).
double young_interval(double delta_s, double mtbf_s);
// Daly's higher-order optimum: sqrt(2 delta M)[1 + sqrt(delta/2M)/3 + (delta/2M)/9] - delta
// when delta < 2M, else M.
double daly_interval(double delta_s, double mtbf_s);
// Daly's expected wall time for `work_s` of work: M e^{R/M} (e^{(tau+delta)/M} - 1) W / tau.
double expected_wall_time(double work_s, double tau_s, double delta_s, double restart_s, double mtbf_s);

// Time to write (read) `bytes` per writer with `clients` nodes at once on `storage`.
double storage_time(Bytes bytes, int clients, Bandwidth per_client, Bandwidth aggregate);

// One Monte Carlo run of the failure process: wall time to finish `work_s` of work.
struct FailureProcess {
  double work_s, tau_s, delta_s, restart_s, mtbf_s;
};
// Deterministic for a seed on every platform (own uniform and exponential draws).
std::vector<double> monte_carlo_wall_times(const FailureProcess& p, int trials, std::uint64_t seed);

// Everything above for one configuration: `nodes` nodes, `work_s` of failure-free training.
ResilienceResult evaluate_resilience(const ResilienceSpec& spec, std::uint64_t parameters, Precision precision,
                                     Optimizer optimizer, int nodes, int gpus_per_node, double work_s);

// As a what-if (whatif.hpp, section `resilience:`, app/whatifs/resilience.cpp), run on each finished
// row: ResilienceResult's fields by name, with expected_time_s, expected_total_time_s and
// expected_cost_usd null for a row that does not fit in memory (it cannot run); when Monte Carlo
// trials ran and the row fits, monte_carlo.{trials, mean_s, p10_s, p50_s, p90_s} (excluding
// start-up) and mc_p10_total_s, mc_p50_total_s, mc_p90_total_s (with it). A warning when the
// checkpoints do not survive a node's loss.
std::shared_ptr<const WhatIf> resilience_whatif(const ResilienceSpec& spec);

}  // namespace ddpsim::sim
