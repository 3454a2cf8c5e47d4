// The CollectiveModel: the ONE way anything in ddpsim prices a collective (a scenario's DDP
// buckets, Horovod's fused cycles, SMDDP's buffers, ZeRO's shards, `ddpsim collective`, and the
// predictions `calibrate fit` compares with measurements). It owns
//   - the rank order (the topology's ring order unless a framework supplies its own ranks),
//   - the channel count (one ring per NIC across nodes, as NCCL wants, one inside a node),
//   - NCCL's choice of algorithm and protocol per size, made on NCCL's own model (tuning.cc):
//       estimate = L_nccl(algorithm, protocol, hops) x plateau + B_line / (cap(protocol) x tree)
//     over every registered algorithm that declares itself nccl_selectable() and is available on
//     the machine (no hard-coded list), where B_line is the algorithm's coarse schedule timed on
//     the topology's links with no latency, cap the protocol's bandwidth cap, tree NCCL's
//     treeCorrectionFactor and plateau the ring's plateau factor (algorithms/nccl_tuning.hpp),
//   - the profile (sim/network/profile.hpp), applied here and nowhere else:
//       t = alpha + L_nccl x plateau + B_line / (cap x tree x efficiency) + gamma x sqrt(S / MiB)
// and returns the collective as a CoarseSchedule that any network backend times: the latency
// terms become its fixed latency (route latency off: NCCL's formula already holds the wire hops),
// the bandwidth divisors its wire factor. On the analytical backend the schedule takes exactly t;
// on the flow backend shared links stretch its transfers.
// Algorithms NCCL does not run (Herring, parameter server, halving-doubling, direct, the
// two-level hierarchical form) are priced as their schedules say: route latency per step plus the
// caller's software latency, the profile's alpha, gamma and efficiency on top.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/aws_ofi_tuner.hpp"
#include "algorithms/nccl_tuning.hpp"
#include "sim/network/analytical.hpp"
#include "sim/network/network.hpp"
#include "sim/network/profile.hpp"
#include "sim/network/shape_cache.hpp"

namespace ddpsim::sim {

// The algorithms `auto` chooses from on `topo`: registered, nccl_selectable(), available, and
// implementing `op`, in registry order (ties go to the earlier one).
std::vector<const algo::Algorithm*> nccl_candidates(const Topology& topo, algo::CollectiveOp op);

// NCCL's channel count as modelled: one ring per NIC across nodes (every NIC carries traffic;
// aws-ofi-nccl asks for at least 8 channels on a 4-NIC p4d, i.e. >= 2 per NIC), one inside a node
// (rotated rings on one node reuse the same GPU pairs, so more channels add no bandwidth here).
// Across nodes a stated count (`software.nccl_channels`, what NCCL's log says it ran) replaces
// it: channel c's ring is rotated by c x GPUs / channels, so a count the NICs do not divide
// loads some NICs with more channels than others (6 on p4d's 4 NICs: 2, 1, 2, 1).
int nccl_channels(const Topology& topo);

// True when the NCCL release the nodes run (InstanceSpec::nccl, scenario `software.nccl`) has the
// algorithm on `topo`, or the protocol (Algorithm::nccl_since, algo::nccl_since: NCCL 2.3 runs
// rings only, LL128 arrived in 2.5.6, NVLS in 2.17 on one node and 2.18 across nodes).
bool nccl_runs(const algo::Algorithm& a, const Topology& topo);
bool nccl_runs(algo::Protocol p, const Topology& topo);
// "<release> has no <what> (first in NCCL <since>)": the one wording of that refusal.
std::string nccl_lacks(const std::string& release, const std::string& what, const Version& since);

struct CollectiveOptions {
  std::string algorithm = "auto";           // "auto" (NCCL's choice per size) or a registered name
  std::optional<algo::Protocol> protocol;   // fixed protocol, or NCCL's choice
  Profile profile;                          // default: the catalog alone (no fitted terms)
  std::vector<VertexId> ranks;              // rank order; empty: ring_order(topo)
  algo::LatencyParams software;             // per-step costs of a non-NCCL library (Gloo's TCP)
  int channels = 0;                         // 0: nccl_channels(topo)
  // False for libraries that are not NCCL (Gloo, SMDDP's servers, a parameter server): no
  // per-size choice, no NCCL latency formula or protocol; the named algorithm's schedule as is.
  bool nccl = true;
  // Who makes NCCL's per-size choice: aws-ofi-nccl's tuner plugin where it has regions
  // (algorithms/aws_ofi_tuner.hpp), NCCL's own model for everything it leaves open.
  algo::Tuner tuner = algo::Tuner::aws_ofi;
  // Issue 21: NCCL schedules kept across runs that differ only in knob values (shape_cache.hpp);
  // null: every schedule built here.
  std::shared_ptr<ShapeScope> shapes{};
};

// The split of a collective's time that the profile's formula works on (microseconds).
struct CostTerms {
  double latency_us = 0;    // L_nccl x plateau (NCCL algorithms), or the schedule's latency part
  double bandwidth_us = 0;  // B_line / (cap x tree): the transfers at efficiency 1
};

// t = alpha + latency + bandwidth / efficiency + gamma sqrt(S/MiB): the profile's formula, the
// one definition `calibrate fit` fits and CollectiveModel schedules.
double profile_time_us(const CostTerms& terms, const ScopeParams& scope, Bytes bytes);

struct PricedCollective {
  const algo::Algorithm* algorithm = nullptr;
  std::optional<algo::Protocol> protocol;  // set for NCCL algorithms
  int channels = 1;
  CostTerms terms;                         // before the profile
  double nccl_estimate_us = 0;             // NCCL's own estimate, which it chooses by (NCCL algorithms)
  algo::CoarseSchedule schedule;           // profile applied: what a backend times
};

class CollectiveModel {
 public:
  // Throws UserError for an unknown algorithm name.
  CollectiveModel(const Topology& topo, CollectiveOptions options);

  // Throws UserError when a named algorithm does not implement `op`, is not available on this
  // machine, or (nvls) is asked for a protocol it does not run.
  PricedCollective price(algo::CollectiveOp op, Bytes bytes) const;

  // What price() weighs for (op, bytes), for `ddpsim collective --explain`: every (algorithm,
  // protocol) pair it could run, each priced as price() would (profile applied) with NCCL's own
  // estimate beside it, and who makes the choice (sim/network/collective_explain.cpp).
  struct Explanation {
    std::vector<PricedCollective> candidates;
    std::string chooser;
  };
  Explanation explain(algo::CollectiveOp op, Bytes bytes) const;

  // The profile's scope for this topology (one node, or the network).
  const ScopeParams& scope() const { return options_.profile.scope(topo_.nodes()); }
  const Topology& topology() const { return topo_; }
  const std::vector<VertexId>& ranks() const { return ranks_; }
  const CollectiveOptions& options() const { return options_; }
  // One node of an NVLink mesh: each channel's ring (topology/rings.hpp mesh_rings); else null.
  const std::shared_ptr<const std::vector<std::vector<VertexId>>>& channel_orders() const { return channel_orders_; }

 private:
  algo::Request request(algo::CollectiveOp op, Bytes bytes, const algo::LatencyParams& latency) const;
  const NcclShape& shape(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes, NcclShape& fresh) const;
  PricedCollective nccl(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes,
                        std::optional<algo::Protocol> only) const;
  std::optional<algo::TunerChoice> plugin_choice(algo::CollectiveOp op, Bytes bytes) const;
  PricedCollective plain(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes) const;
  int nccl_model_channels() const;
  void apply_profile(PricedCollective& p, Bytes bytes) const;

  const Topology& topo_;
  CollectiveOptions options_;
  std::vector<VertexId> ranks_;
  int channels_;
  std::shared_ptr<const std::vector<std::vector<VertexId>>> channel_orders_;  // one node's mesh rings
  const algo::Algorithm* named_ = nullptr;  // null for auto
  // Times schedules for NCCL's own model (the choice never depends on the engine in use).
  std::unique_ptr<AnalyticalBackend> timer_;
  // price() is a pure function of (op, bytes) for a given model; DDP buckets of one size and
  // ZeRO's per-layer gathers repeat them (issue 11: plan speed, docs/performance.md).
  mutable std::map<std::pair<int, std::uint64_t>, PricedCollective> memo_;
};

// Times one priced collective alone on `net` (an idle network), in microseconds.
double time_alone_us(const PricedCollective& p, NetworkBackend& net);

}  // namespace ddpsim::sim
