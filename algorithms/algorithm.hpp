// The interface every collective algorithm implements. Algorithms are pure: a request in, a
// schedule out. They may look at the topology (who is on which node, which CPU is a node's host)
// but never at the event engine or a network backend.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "algorithms/schedule.hpp"
#include "topology/topology.hpp"

namespace ddpsim::algo {

// Software costs an algorithm charges per step or per collective, on top of wire latency.
// Defaults are zero; the NCCL cost model (calibration profiles) fills them in.
struct LatencyParams {
  Time base{0};          // once per collective
  Time intra_step{0};    // per step whose hop stays inside a node
  Time inter_step{0};    // per step whose hop crosses the network
};

struct Request {
  CollectiveOp op = CollectiveOp::all_reduce;
  Bytes bytes;                      // the buffer size per rank (nccl-tests "size")
  const Topology* topo = nullptr;
  std::vector<VertexId> ranks;      // the GPU of each rank, in rank order
  LatencyParams latency;
  int channels = 1;                 // parallel rings/trees the bytes are split over
  // Optional: each channel's own rank order (`channels` of them, each a permutation of `ranks`),
  // for rings that do not follow `ranks` (one node's NVLink mesh: topology/rings.hpp mesh_rings).
  // Null: channel c rotates each node's local order (allreduce_ring.hpp channel_ring).
  std::shared_ptr<const std::vector<std::vector<VertexId>>> channel_orders{};
};

// The GPUs of every node in `topo`, node-major: the default rank order.
std::vector<VertexId> all_gpus(const Topology& topo);

// Hops on an algorithm's latency-critical path, split by where they go (NCCL's nsteps and
// nInterSteps in tuning.cc).
struct HopCount {
  int intra = 0;  // inside a node
  int inter = 0;  // across the network
};

// Which row of NCCL's tuning tables (algorithms/nccl_tuning.hpp) prices an algorithm's latency.
enum class NcclFamily { ring, tree, nvls };

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view summary() const = 0;
  virtual bool supports(CollectiveOp op) const = 0;
  // False when the machine lacks what the algorithm needs (e.g. NVLink SHARP for nvls).
  virtual bool available(const Topology& /*topo*/) const { return true; }
  virtual StepSchedule steps(const Request& req) const = 0;
  virtual CoarseSchedule phases(const Request& req) const = 0;

  // The hops a message waits for end to end. Default: every step of every phase, a phase's
  // steps counting as network hops when any of its flows crosses nodes (step-synchronous
  // schedules); pipelined algorithms (the ring) override it.
  virtual HopCount latency_hops(const Request& req) const;
  // The part of the buffer rank `rank` (an index into req.ranks) owns in req.op: what it ends
  // with after a reduce_scatter, what it starts with before an all_gather. Default: NCCL's
  // layout, rank r's chunk of split_even(bytes, P) at r x S/P. Algorithms whose steps leave the
  // shards elsewhere say so (the ring: its chunk rotation; rhd: its halving order). Data-level
  // tests check schedules against it.
  virtual std::vector<ByteRange> shard(const Request& req, std::size_t rank) const;
  virtual NcclFamily nccl_family() const { return NcclFamily::ring; }
  // True when NCCL itself runs this algorithm, so `auto` (NCCL's per-size choice, priced with
  // tuning.cc's model) may pick it. Algorithms NCCL does not have (halving-doubling, direct,
  // two-level hierarchical, Herring, parameter server) are only run when named.
  virtual bool nccl_selectable() const { return false; }
  // The first NCCL release that runs this algorithm on `topo` (for nccl_selectable ones; the
  // sources are in each override): NCCL's choice on a node running an older NCCL
  // (InstanceSpec::nccl, scenario `software.nccl`) never considers it. Default: every 2.x release.
  virtual Version nccl_since(const Topology& /*topo*/) const { return Version{2, 0, 0}; }
  // True when the coarse form, beyond two nodes, draws a node's inter-node traffic as merged
  // flows through its NICs so that flows timed alone still load each NIC truly (the tree). Its
  // bytes and time are then at least the step form's, which keeps every real send.
  virtual bool coarse_merges_nic_traffic() const { return false; }
};

}  // namespace ddpsim::algo
