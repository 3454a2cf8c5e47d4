// The collective time model used by `ddpsim collective` and fitted by `ddpsim calibrate fit`.
//   t = alpha + L_nccl(algorithm, protocol) + B_line(algorithm, S) / (cap(protocol) x efficiency)
//       + gamma x sqrt(S / MiB)
// B_line is the bandwidth part of the algorithm's coarse schedule timed by a network backend on
// the catalog's links (its time at S bytes minus its time at 0 bytes, with no software latency);
// L_nccl is NCCL's latency formula for the algorithm's latency_hops() (algorithms/nccl_tuning.hpp);
// alpha, efficiency and gamma come from a profile (calibrate/profile.hpp), per scope.
// `auto` picks the algorithm and protocol as NCCL's tuning.cc does: the smallest L + B/cap among
// the NCCL-like algorithms (ring; nvls where the machine has NVLink SHARP; tree; hierarchical, the
// unpipelined two-level form, as in NCCL's CollNet/NVLSTree shapes), before any
// fitted correction, exactly as NCCL decides on its own model rather than on measurements.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/nccl_tuning.hpp"
#include "sim/network/profile.hpp"
#include "sim/network/network.hpp"

namespace ddpsim::sim {

struct Choice {
  const algo::Algorithm* algorithm = nullptr;
  algo::Protocol protocol = algo::Protocol::simple;
  double latency_us = 0;    // L_nccl
  double bandwidth_us = 0;  // B_line / cap(protocol), at efficiency 1
};

// The algorithms `auto` chooses from, in tie-break order.
std::vector<std::string> auto_algorithms();
// NCCL's channel count as modelled: one ring per NIC across nodes (every NIC carries traffic,
// FACTS.md: NCCL wants >= 8 channels for 4 NICs on p4d), one inside a node (rotated rings on one
// node reuse the same GPU pairs, so more channels add no bandwidth in this model).
int default_channels(const Topology& topo);

class CostModel {
 public:
  // `net` must be a backend built on `topo`.
  CostModel(const Topology& topo, NetworkBackend& net);

  // `algorithm`: "auto" or a registered name; `protocol`: fixed, or the cheapest.
  // Throws UserError for an unknown algorithm or one that does not implement `op`.
  Choice choose(algo::CollectiveOp op, Bytes bytes, std::string_view algorithm,
                std::optional<algo::Protocol> protocol = std::nullopt);

  // The predicted time of a choice with the profile's parameters for this topology's scope.
  double time_us(const Choice& c, const Profile& profile, Bytes bytes) const;

  const Topology& topology() const { return topo_; }

 private:
  algo::Request request(algo::CollectiveOp op, Bytes bytes) const;
  double schedule_us(const algo::Algorithm& a, algo::CollectiveOp op, Bytes bytes);

  const Topology& topo_;
  NetworkBackend& net_;
  std::vector<VertexId> ranks_;
  int channels_;
};

}  // namespace ddpsim::sim
