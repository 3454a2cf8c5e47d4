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

// The framework's own fixed cost per optimizer step (Lightning's loop; 0 for the others).
Time framework_step_overhead(Framework f, Time lightning_overhead);

// What the user should know about running `f` on `inst` (SMDDP outside its supported list).
std::vector<std::string> framework_warnings(Framework f, const InstanceSpec& inst);

}  // namespace ddpsim::sim
