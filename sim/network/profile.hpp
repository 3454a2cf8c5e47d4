// A calibration profile: the cost parameters fitted for one instance type, with where they came
// from. Scenarios and `ddpsim collective` use it instead of the catalog's defaults.
//
// The collective time model (sim/network/collective_model.hpp, the one place it is applied) for a
// collective of S bytes is
//   t = alpha + L_nccl + B_line / efficiency + gamma x sqrt(S / 1 MiB)
// where L_nccl is NCCL's own latency formula (algorithms/nccl_tuning.hpp) and B_line the
// schedule's bandwidth time on the catalog's links with the protocol's cap. Fitted, per scope
// (one node: NVLink only; several nodes: the network is the bottleneck):
//   alpha       [us]  software latency NCCL's table does not know (launch, proxy thread, EFA);
//   efficiency  [1]   achieved / catalog line rate;
//   gamma       [us]  the cost of filling the pipeline: a pipelined transfer of S bytes with
//                     the best chunk size costs 2 sqrt(a S / B) more than a + S/B (e.g. Traff,
//                     "pipelined broadcast"), so a sqrt(S) term with a free coefficient.
#pragma once

#include <cmath>
#include <cstdint>

#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace ddpsim::sim {

struct Provenance {
  std::vector<std::string> inputs;  // files the fit used
  std::string nccl_version;         // when the logs say
  std::string method;               // what was fitted, e.g. "least squares: alpha, beta per hop class"
  std::string algorithm = "auto";   // the algorithm the logs ran ("auto": NCCL's own choice)
  std::vector<std::string> assumed; // per input: the tuner/algorithm/protocol the fit assumed, and why
};

struct ScopeParams {
  bool fitted = false;
  double alpha_us = 0;
  double efficiency = 1.0;
  double gamma_us = 0;  // per sqrt(MiB)
  int points = 0;       // measurements the fit used
  // Every collective of this scope takes this x its price, latency and bandwidth alike. Not part
  // of a profile file (calibrate fit neither fits nor writes it): set through the knob
  // `network_scale`, by which intervals carry a price's measured error (an error of the whole
  // time; sim/study/model_error.hpp) and which a job fit (calibrate job) may fit.
  double time_scale = 1;
  // ... and on N > drift_from_nodes nodes also drift^log2(N / drift_from_nodes): an interval's draw
  // of how a price's error grows beyond the node counts it was measured on (knob `network_drift`,
  // sim/study/model_error.hpp). 1 / 0: none.
  double drift = 1;
  int drift_from_nodes = 0;
  // ... and below `below_bytes`, below_scale in place of time_scale: an interval's draw of the
  // catalog price's error at the sizes a fitted profile left to the catalog's latency (knob
  // `network_scale_below`; sim/study/model_error.hpp unfitted_latency_below). 0: none.
  double below_scale = 0;
  std::uint64_t below_bytes = 0;
  // The whole factor on a collective of `bytes` over `nodes` nodes.
  double scale_at(int nodes, std::uint64_t bytes) const
  {
    const double base = below_scale > 0 && bytes < below_bytes ? below_scale : time_scale;
    if (drift == 1 || drift_from_nodes <= 0 || nodes <= drift_from_nodes) return base;
    return base * std::pow(drift, std::log2(static_cast<double>(nodes) / drift_from_nodes));
  }
};

struct Residual {
  std::string file;
  int line = 0;
  int nodes = 0;
  std::uint64_t bytes = 0;
  double measured_us = 0;
  double predicted_us = 0;
  std::string algorithm;
  std::string protocol;
  // The time ddpsim gives the row with its scope fitted without it (leave-one-out; issue 18 item
  // 4), 0 where none: too few other rows, or a profile written before round 4 session 29.
  double held_out_us = 0;
  double error() const { return predicted_us / measured_us - 1.0; }
};

struct Profile {
  std::string instance;
  ScopeParams intra;    // used for one-node collectives
  ScopeParams network;  // used when the collective spans nodes
  Provenance provenance;
  std::vector<Residual> residuals;  // one per fitted point
  std::vector<std::string> warnings;  // implausible fitted values and the mechanism probably missing

  const ScopeParams& scope(int nodes) const { return nodes > 1 ? network : intra; }
  // The largest node count among the fitted points (0: none recorded, e.g. the catalog's profile).
  int fitted_nodes() const;
  // The efficiency a collective on `nodes` nodes is priced with, by a library that is NCCL or
  // not: the scope's, with two caps at 1 (the catalog's achievable rate) on a fitted value above 1.
  //   - On three nodes or more, when it was fitted on two-node rows run with NCCL's trees (tree,
  //     nvls): two nodes are the special case where a tree's bus bandwidth "can get up to 2x the
  //     network bandwidth ... This does not apply to 3+ nodes" (sjeaugey, NVIDIA/nccl #209); the
  //     fit absorbed that, not a faster link. A ring-only fit above 1 carries (a ring moves the
  //     same bytes per node at any node count).
  //   - For a library other than NCCL (SMDDP, a parameter server, Gloo): a profile is fitted to
  //     NCCL's collectives, and what lifts it above 1 corrects NCCL's own path (its staged ring,
  //     its two-node trees), not another library's (Herring's exchange would run a NIC above its
  //     line rate).
  double efficiency(int nodes, bool nccl = true) const;
};

// The profile implied by the catalog alone: no software latency, line-rate links.
Profile default_profile(const std::string& instance);

// The one rule for a profile's forced algorithm, for `ddpsim collective` and scenarios alike: a
// profile fitted on logs that forced an algorithm (NCCL_ALGO: provenance.algorithm) predicts
// that algorithm, unless the caller named one, and only where it is a registered algorithm that
// implements `op` (issue 20). nullopt: the caller's algorithm (or NCCL's choice) stands.
std::optional<std::string> profile_algorithm(const Profile& p, bool caller_named, algo::CollectiveOp op);

}  // namespace ddpsim::sim
