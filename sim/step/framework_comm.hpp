// What a framework brings to the pricing of its reductions, on a topology: which library runs
// them (NCCL's per-size choice, or a named algorithm of another library), over which ranks, at
// which software cost, and what it does around them (Gloo's host staging). The CollectiveModel
// prices the collective itself; this layer only wraps it. docs/model.md has the sources.
//   pytorch-ddp, lightning, horovod: NCCL (communication.algorithm, default auto).
//   smddp: Herring over the hosts' CPUs; parameter-server: the classic PS (not NCCL).
//   gloo: a ring between the host processes over TCP: rank i of a node has its host buffer on
//     CPU socket (i mod sockets), every step pays Gloo's TCP overhead, and the gradients are
//     copied to the host before and back after (Gloo's CUDA all-reduce stages through pinned
//     host memory).
#pragma once

#include <string>
#include <vector>

#include "sim/network/collective_model.hpp"
#include "sim/step/frameworks.hpp"

namespace ddpsim::sim {

struct FrameworkComm {
  CollectiveOptions collective;
  std::vector<VertexId> staged_from;  // Gloo: the GPU of each host rank (copied to/from the host); else empty
};

// `algorithm`: communication.algorithm ("auto" or a name); `gloo_step_overhead`: Gloo's TCP cost
// per ring step. Throws UserError when Gloo's ring would put two neighbours on one socket.
FrameworkComm framework_comm(Framework f, const Topology& topo, const std::string& algorithm, const Profile& profile,
                             Time gloo_step_overhead);

// The framework's reduction of `bytes`: the model's price, plus Gloo's host staging.
PricedCollective framework_reduce(const FrameworkComm& fc, const CollectiveModel& model, Bytes bytes);

// The host process of each GPU rank: rank i of a node on CPU socket (i mod sockets) of its node.
std::vector<VertexId> host_ranks(const Topology& topo, const std::vector<VertexId>& gpu_ranks);

// Horovod's negotiation of one cycle, priced by the CollectiveModel as the collective Horovod
// runs (docs/model.md "Per-step overheads"): with the response cache on (the default), every
// cycle ANDs one bit vector over all ranks (horovod/common/response_cache.cc,
// CacheCoordinator::sync -> Controller::CrossRankBitwiseAnd, an MPI_Allreduce with MPI_BAND in
// mpi_controller.cc); the second all-reduce (OR) runs only in a cycle where some rank has an
// invalid cache entry, never in steady state. The vector holds one bit per cached tensor plus 4
// status bits, in 64-bit words (horovod_bit_vector). MPI reduces so small a buffer by recursive
// doubling (algorithm "rd") between the host processes (host_ranks), each step one TCP message
// of `tcp_message` on the host.
Bytes horovod_bit_vector(std::size_t tensors);
Time horovod_negotiation(const Topology& topo, std::size_t tensors, Time tcp_message);

// The framework's own fixed cost per optimizer step (Lightning's loop; 0 for the others).
Time framework_step_overhead(Framework f, Time lightning_overhead);

// What the user should know about running `f` on `inst` (SMDDP outside its supported list).
std::vector<std::string> framework_warnings(Framework f, const InstanceSpec& inst);

}  // namespace ddpsim::sim
