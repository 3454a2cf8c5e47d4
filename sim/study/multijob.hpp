// Several jobs on one fabric (issue 12, item 4; docs/whatif.md section 5): two or more training
// jobs placed on disjoint nodes of one cluster, each with its own model, framework and batch. Each
// job's iteration is simulated as for a scenario of its own (priced on its own nodes), its
// collectives' flows are moved onto the nodes it was placed on, and the flow engine times:
//   - alone:    the job's collectives on the shared fabric with no other job running;
//   - together: every job's collectives in ONE SimGrid simulation, so flows of different jobs
//               that cross the same link (a leaf uplink, the spine) share it max-min fairly.
// Each job's step is then recomputed with the timings it got (same compute, same buckets), and
// its slowdown is together / alone. The jobs start their steps at the same instant (aligned);
// identical jobs stay aligned step after step, different ones drift in reality (not modelled).
// Only the flow engine shares links: the analytical engine prices every link as private, so
// run_multijob refuses it (UserError on field "jobs").
#pragma once

#include <string>
#include <vector>

#include "sim/study/scenario.hpp"

namespace ddpsim::sim {

// How jobs that give a node count (not a node range) get their nodes.
//   packed: the lowest free nodes, job after job (a job fills a leaf before the next leaf);
//   spread: one node per leaf in turn (leaf 0, 1, 2, ..., wrapping), the lowest free node of each;
//           on a fabric without leaves (single switch, rail) it is the same as packed.
enum class Placement { packed, spread };
std::string_view to_string(Placement p);

struct JobSpec {
  std::string name;
  ScenarioSpec spec;       // the job as a scenario of its own: cluster.nodes = {its node count}
  int first_node = -1;     // >= 0: the job runs on nodes [first_node, first_node + count)
};

struct MultiJobSpec {
  std::string name;
  std::string description;
  std::string engine;       // the file's `engine:` ("" = not given); --engine overrides it
  InstanceSpec instance;
  int nodes = 0;            // nodes of the shared cluster
  int gpus_per_node = 0;    // 0 = all of the instance's
  FabricSpec fabric;        // the shared fabric (degraded links apply to it, in cluster numbering)
  Placement placement = Placement::packed;
  std::vector<JobSpec> jobs;
};

// The nodes of each job, in the jobs' order: node ranges first, then the others by the policy.
// Throws UserError (field "jobs") when the jobs need more nodes than the cluster has or ranges
// overlap (the loader checks this first, with locations).
std::vector<std::vector<int>> place_jobs(const MultiJobSpec& spec);

struct JobResult {
  std::string name;
  std::string model;        // the job's model name
  std::vector<int> nodes;   // cluster nodes the job runs on
  ConfigResult alone;       // on the shared fabric, no other job
  ConfigResult together;    // with every job's collectives at once
  double slowdown = 1;      // together.step_time_s / alone.step_time_s
};

struct MultiJobReport {
  std::string scenario, description, engine, instance, fabric, placement;
  int nodes = 0;
  int gpus = 0;
  std::vector<JobResult> jobs;
};

MultiJobReport run_multijob(const MultiJobSpec& spec, EngineKind engine);

}  // namespace ddpsim::sim
