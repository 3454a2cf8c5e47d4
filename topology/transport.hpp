// How inter-node bytes travel on a node, from its NIC and the software stack that drives it
// (issue 18; docs/model.md "Transports"). Sources are cited next to each rule in transport.cpp.
//   - NCCL's socket transport (ENA, or EFA without the aws-ofi-nccl plugin): each peer connection
//     is NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD TCP flows; EC2 caps each flow at 5 Gbps, or
//     10 Gbps inside a cluster placement group; bytes are staged in host memory.
//   - aws-ofi-nccl over EFA (SRD: no per-flow cap); host-staged unless the NIC has GPUDirect RDMA.
//   - InfiniBand verbs: as the catalog says (GPUDirect where it says so).
#pragma once

#include <string>

#include "core/version.hpp"
#include "topology/instance.hpp"

namespace ddpsim {

// The software stack on every node (scenario key `software:`, docs/scenario.md). Defaults: the
// current era (DLAMI/DLC images of 2024-2025), see kDefault* below and docs/model.md.
struct SoftwareSpec {
  Version nccl = kDefaultNccl;
  std::string aws_ofi_nccl = "1.13.2";  // "none": no plugin installed (NCCL uses its socket transport)
  std::string efa_installer = "1.38.0";
  int socket_nthreads = -2;   // NCCL_SOCKET_NTHREADS; -2: NCCL's automatic choice
  int nsocks_perthread = -2;  // NCCL_NSOCKS_PERTHREAD; -2: NCCL's automatic choice
  // NCCL_MIN_NRINGS (NCCL < 2.5; NCCL_MIN_NCHANNELS since): each ring (channel) opens its own
  // connection to the next node, so a hop between two nodes has this many x sockets flows. 0: unset.
  int min_nrings = 0;
};

struct TransportSpec {
  SoftwareSpec software;
  // EC2 cluster placement group (scenario key cluster.placement_group). Default false: EC2 places
  // instances in no placement group unless asked (EC2 User Guide, "Placement groups").
  bool placement_group = false;
};

// The first NCCL release that splits a socket connection over several threads and sockets and
// picks 2 x 8 on AWS NICs: v2.4.8-1 (NVIDIA/nccl commit 7c72dee, 2019-06-25, "Fix #209").
inline constexpr Version kNcclMultiSocket{2, 4, 8};

// TCP flows per peer connection of NCCL's socket transport for this NIC and stack.
int nccl_sockets_per_connection(const SoftwareSpec& sw, const NicSpec& nic);

// EC2's single-flow limit (EC2 User Guide, "Amazon EC2 instance network bandwidth").
Bandwidth ec2_flow_limit(bool placement_group);

// True when NCCL runs its socket transport on this NIC with this stack (ENA, or EFA without aws-ofi-nccl).
bool uses_sockets(const NicSpec& nic, const SoftwareSpec& sw);

// Sets spec.nic's flow_cap and flows_per_connection from the NIC and `t`, and for the socket
// transport gpudirect = false (sockets always bounce through host memory). Routes without
// GPUDirect are host-staged (topology/routing.cpp). Apply once, to a catalog instance.
void apply_transport(InstanceSpec& spec, const TransportSpec& t);

}  // namespace ddpsim
