// How inter-node bytes travel on a node, from its NIC and the software stack that drives it
// (issue 18; docs/model.md "Transports"). Sources are cited next to each rule in transport.cpp.
//   - NCCL's socket transport (ENA, or EFA without the aws-ofi-nccl plugin): each peer connection
//     is NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD TCP flows; EC2 caps each flow at 5 Gbps, or
//     10 Gbps inside a cluster placement group; bytes are staged in host memory.
//   - aws-ofi-nccl over EFA (SRD: no per-flow cap); host-staged unless the NIC has GPUDirect RDMA.
//   - InfiniBand verbs: as the catalog says (GPUDirect where it says so).
#pragma once

#include <string>
#include <string_view>

#include "core/version.hpp"
#include "topology/instance.hpp"
#include "topology/software_era.hpp"

namespace ddpsim {

// The software stack on every node (scenario key `software:`, docs/scenario.md). Defaults: the
// current era (DLAMI/DLC images of 2024-2025), see kDefault* below and docs/model.md.
struct SoftwareSpec {
  Version nccl = kDefaultNccl;
  // aws-ofi-nccl: a release, "none" (no plugin: NCCL uses its socket transport), or "" (unset:
  // the release of NCCL's era, aws_ofi_nccl_release below).
  std::string aws_ofi_nccl;
  // libfabric, the library aws-ofi-nccl drives EFA through: a release, or "" (unset: that of the
  // EFA installer, else of NCCL's era; libfabric_release below).
  std::string libfabric;
  // AWS's EFA installer: a release, or "" (unset). It decides libfabric where that is not named
  // (libfabric_of_efa_installer, topology/software_era.hpp).
  std::string efa_installer;
  int socket_nthreads = -2;   // NCCL_SOCKET_NTHREADS; -2: NCCL's automatic choice
  int nsocks_perthread = -2;  // NCCL_NSOCKS_PERTHREAD; -2: NCCL's automatic choice
  // NCCL_MIN_NRINGS (NCCL < 2.5; NCCL_MIN_NCHANNELS since): each ring (channel) opens its own
  // connection to the next node, so a hop between two nodes has this many x sockets flows. 0: unset.
  int min_nrings = 0;
  // NCCL_BUFFSIZE (scenario key software.nccl_buffsize; a log's NCCL_BUFFSIZE=... line).
  Bytes nccl_buffsize{kNcclDefaultBuffsize};
  // The channels NCCL runs across nodes, as its INFO log says ("N coll channels"; forced by
  // NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = N). 0: unstated (one per NIC, as modelled).
  int nccl_channels = 0;
};

// NCCL_BUFFSIZE values ddpsim accepts, from a scenario, the command line or a log: 64 KiB to 1 GiB
// (NCCL's default is 4 MiB, kNcclDefaultBuffsize; a buffer outside this is a typo, not a tuning).
bool nccl_buffsize_ok(Bytes b);
inline constexpr const char* kNcclBuffsizeRange = "64KiB..1GiB";  // as error messages say it

struct TransportSpec {
  SoftwareSpec software;
  // EC2 cluster placement group (scenario key cluster.placement_group). Default false: EC2 places
  // instances in no placement group unless asked (EC2 User Guide, "Placement groups").
  bool placement_group = false;
  // The training processes run in Kubernetes pods on the pod network (cluster.pod_network; not
  // hostNetwork): NCCL's socket transport sees the pod's veth, whose sysfs entry has no PCI
  // device, so its AWS auto-detection (2 threads x 8 sockets) does not fire (net_socket.cc).
  bool pod_network = false;
  bool nccl_stated = false;  // the input named software.nccl (else kDefaultNccl is an assumption)
  bool aws_ofi_nccl_stated = false;  // the input named software.aws_ofi_nccl
  bool libfabric_stated = false;  // the input named software.libfabric
  bool nccl_buffsize_stated = false;  // the input named software.nccl_buffsize (a log's value then yields)
  bool nccl_channels_stated = false;  // the input named software.nccl_channels (a log's count then yields)
  // software.as_of: the stack of a date; it filled whichever of nccl, aws_ofi_nccl and libfabric were not named.
  std::optional<SoftwareAsOf> as_of;
};

// The first NCCL release that splits a socket connection over several threads and sockets and
// picks 2 x 8 on AWS NICs: v2.4.8-1 (NVIDIA/nccl commit 7c72dee, 2019-06-25, "Fix #209").
inline constexpr Version kNcclMultiSocket{2, 4, 8};

// aws-ofi-nccl's releases that decide NCCL's protocols (github aws/aws-ofi-nccl, read at the tags).
// The plugin sets NCCL_PROTO=simple (unless the user set NCCL_PROTO) where the EFA endpoint cannot
// promise the in-order, 128-byte aligned delivery that NCCL's LL and LL128 protocols rely on:
//   - v1.6.0 (2023-04-21; commit 0bac2382 "Import AWS-specific code"): platform table with
//     force_proto_simple on p4d.24xlarge, p4de.24xlarge and p3dn.24xlarge, and on any platform
//     the table lacks (p5 then);
//   - v1.7.0-aws .. today: on every endpoint that does not report
//     FI_OPT_EFA_{SENDRECV,WRITE}_IN_ORDER_ALIGNED_128_BYTES (src/platform-aws.c
//     platform_config_endpoint; from v1.15.0 also when GPUDirect RDMA is unsupported, d809a881);
//     p3dn (no RDMA) and p4d/p4de (first-generation EFA) are in that case;
//   - p5.48xlarge exempt from v1.7.3-aws (3d5e21db, "Do not force NCCL_PROTO=simple on P5"; from
//     v1.11.0 because EFA reports the ordering there, ece41f0c); p5en.48xlarge from v1.13.0
//     (ef08e658).
// NCCL reads NCCL_PROTO from v2.5.6 (src/graph/tuning.cc; 299c554d): older releases ignore it.
inline constexpr Version kOfiSetsProtoSimple{1, 6, 0};
inline constexpr Version kOfiP5LowLatency{1, 7, 3};
inline constexpr Version kOfiP5enLowLatency{1, 13, 0};
inline constexpr Version kNcclReadsProto{2, 5, 6};
// The aws-ofi-nccl a node runs when the scenario names none: that of NCCL's era. NCCL releases
// before v2.18.1 (2023-04-03) predate v1.6.0 (2023-04-21), so their era's plugin (taken as 1.5.0)
// set no NCCL_PROTO; later ones get the current era's (DLAMI/DLC images of 2024-2025).
inline constexpr Version kNcclOfOfi16Era{2, 18, 1};
// aws-ofi-nccl's tuner as ddpsim models it (algorithms/aws_ofi_tuner.hpp, its region tables) is
// built into the net plugin from v1.10.0-aws (2024-08-06; commit bacae0ce "tuner: replacing model
// with regions-based tuner", src/Makefile.am libinternal_tuner_plugin). v1.8.0-v1.9.x shipped a
// different, model-based tuner as its own library (libnccl-ofi-tuner.so) that NCCL loads only when
// NCCL_TUNER_PLUGIN names it; before v1.8.0 there was none. Without it NCCL's own model chooses.
inline constexpr Version kOfiRegionTuner{1, 10, 0};
inline constexpr Version kDefaultAwsOfiNccl{1, 13, 2};
// The aws-ofi-nccl release the nodes run: software.aws_ofi_nccl, or that of NCCL's era when unset.
// {0,0,0} for "none".
Version aws_ofi_nccl_release(const SoftwareSpec& sw);
// libfabric's EFA provider and GPU memory (github ofiwg/libfabric, prov/efa/src/rxr at the tags and
// NEWS.md). From v1.11.0 (GPU memory over EFA) to v1.14.x:
//   - every message sent from GPU memory goes by the read-message protocol, whatever its size
//     (rxr_msg.c rxr_msg_post_cuda_rtm at v1.13.2: "Currently cuda data must be sent using read
//     message protocol"): a request packet, the receiver's RDMA read of the sender's GPU buffer, an
//     end-of-read packet back; the receiver holds the data after three one-way latencies, not one;
//   - eager data that arrives for a GPU buffer is copied out of the host bounce buffer by a local
//     RDMA read (commit b6462d6d, 2020-09-19, in v1.11.1; "an expensive operation", 3690a6ed).
// v1.15.0 (2022-04-29, "Added support of using gdrcopy to copy data from host to device") sends
// small GPU messages eagerly and copies arrivals with gdrcopy (3e0c423c, 3690a6ed), where the image
// has gdrcopy (taken so: the DLAMI and AWS's containers install it). NCCL puts every protocol's
// receive buffer and the Simple and LL128 send buffers in GPU memory under GPUDirect, LL's send
// buffer in host memory (src/transport/net.cc protoLoc, v2.7.8-1), so on such a stack a network hop
// costs LL128 and Simple two more NIC latencies and LL one (a local read priced as NCCL prices its
// flush, itself a local RDMA read: one NIC latency; algorithms/nccl_tuning.cpp nccl_latency).
inline constexpr Version kLibfabricGdrcopy{1, 15, 0};
// The libfabric release the nodes run: software.libfabric, else the EFA installer's
// (software.efa_installer, as AWS lists it), else the newest tagged on or before the NCCL
// release's tag (an upper bound: images lag releases).
Version libfabric_release(const SoftwareSpec& sw);
// True when the nodes reach GPU memory over EFA through libfabric's read-message protocol and
// local-read copies (the rules above): EFA with GPUDirect RDMA, aws-ofi-nccl, libfabric < 1.15.
bool efa_gpu_read_protocol(const NicSpec& nic, const SoftwareSpec& sw);
// Whether a price pays it on `inst`: set by the software, and GPUDirect still on (a log that shows
// the route host-staged clears nic.gpudirect after the software was applied).
bool efa_read_protocol_priced(const InstanceSpec& inst);

// True when the net plugin makes NCCL run the Simple protocol only on `instance` (rules above).
bool net_plugin_forces_simple(const std::string& instance, const NicSpec& nic, const SoftwareSpec& sw);

// NCCL flushes every Simple-protocol receive that lands in GPU memory by GPUDirect RDMA before the
// GPU reads it (src/transport/net.cc v2.20.3-1: `p == NCCL_PROTO_SIMPLE && needFlush`; the plugin's
// iflush is an RDMA read of the buffer through the NIC), and its cost model charges that flush as
// one more network latency per inter-node hop (src/graph/tuning.cc: "Also add the flush extra
// latency"). needFlush (src/graph/paths.cc ncclTopoNeedFlush): always below compute capability 9.0;
// on Hopper NCCL_NET_FORCE_FLUSH, whose default is 1 before NCCL 2.19.1 (v2.18.5-1 paths.cc) and 0
// from it, and which aws-ofi-nccl sets to 0 on p5, p5e and p5en from 1.8.0-aws (74fd41a6:
// "Hopper GPUs do not require a network flush"). True when NCCL would flush a GPUDirect receive on
// these nodes; routes without GPUDirect (sockets, host-staged) never flush (algo::nccl_latency).
inline constexpr Version kNcclHopperNoFlush{2, 19, 1};
inline constexpr Version kOfiP5NoFlush{1, 8, 0};
bool nccl_flushes(const InstanceSpec& spec, const SoftwareSpec& sw);
// aws-ofi-nccl's RDMA protocol (fi_writedata), which it runs from v1.7.0-aws where a node has more
// EFA devices than GPUs (p5's 4 per GPU, p5en's 2; src/nccl_ofi_net.c, v1.7.0-aws and v1.8.1-aws),
// and its SENDRECV protocol (tagged send/recv) elsewhere: p4d and p4de in every release
// (src/platform-aws.cpp default_protocol, v1.21.1).
inline constexpr Version kOfiRdmaProtocol{1, 7, 0};
// EFA devices per GPU (4 on p5 and p5e, 2 on p5en, else 1), where the catalog sums them into one NIC.
int efa_devices_per_gpu(const std::string& instance);
// True when the nodes' aws-ofi-nccl runs its RDMA protocol on EFA (the rule above).
bool aws_ofi_rdma_protocol(const InstanceSpec& spec, const SoftwareSpec& sw);
// The RDMA protocol groups a GPU's NICs into rails and stripes each message above
// OFI_NCCL_ROUND_ROBIN_THRESHOLD over all of them, each part its own RDMA write and completion;
// smaller messages go whole to one rail in turn (src/nccl_ofi_scheduler.c
// set_schedule_by_threshold). The threshold was 8 KiB in v1.7.0-v1.7.3 and is 256 KiB from
// v1.7.4-aws (81a1cca1, the backport of 74512f3b, 2023-11-11: "empirical testing on P5 indicates
// that throughput is generally improved with a larger round robin threshold"), so a 128 KiB
// NVLS+Tree chunk leaves as four writes on p5 with 1.7.0-1.7.3 and as one after. ddpsim has no
// per-message cost on EFA with a source, so this is not priced; a note says so (app/input
// rail_striping_note; the EKS p5 log of NCCL 2.18.5 + aws-ofi-nccl 1.7.3, docs/validation.md B).
inline constexpr Version kOfiRailThreshold256K{1, 7, 4};
// True when the nodes' aws-ofi-nccl stripes every message above 8 KiB over a GPU's rails.
bool net_plugin_stripes_small_messages(const InstanceSpec& spec, const SoftwareSpec& sw);
// From v1.17.0 libfabric's EFA provider sends a message from GPU memory that does not fit one
// eager packet (about 8 KiB) by a read-based protocol (github ofiwg/libfabric, prov/efa/src/efa_hmem.c
// at v1.17.0 .. v2.6.0: CUDA's min_read_msg_size = efa_max_eager_msg_size_with_largest_header + 1;
// v1.15-v1.16 sent such messages as medium and long-CTS packets up to 1 MiB, rxr_msg.c): a runting
// read while the peer's runt budget (FI_EFA_RUNT_SIZE, 300 KiB) lasts and no other read message to
// it is in flight, else a long read (v1.19.0 efa_rdm_msg.c efa_rdm_msg_select_rtm, efa_rdm_peer.c
// efa_rdm_peer_select_readbase_rtm), and arrivals are copied by gdrcopy or a local read depending on
// how many receives hold a copy slot (efa_rdm_pke_utils.c). Which path a message takes depends on
// what else is in flight, so it is not priced; `ddpsim collective` says so. aws-ofi-nccl reaches it
// through its SENDRECV protocol, not its RDMA protocol (aws_ofi_rdma_protocol above).
inline constexpr Version kLibfabricGpuReadAboveEager{1, 17, 0};
// True when a GPUDirect message above one eager packet crosses EFA by libfabric's read protocols
// (the rules above), a cost not priced.
bool efa_mid_size_read_unpriced(const InstanceSpec& spec, const SoftwareSpec& sw);
// The network latency aws-ofi-nccl reports to NCCL (props->latency), which NCCL's model charges per
// network hop when it chooses (github aws/aws-ofi-nccl, read at the tags): 0 before v1.2.0-aws
// (2022-01-24, commits 40000971/d0877493 "Set intranode latency for EFA networks": 150 us on every
// EFA endpoint, "chosen by measuring all reduce latency for different NCCL algorithms"); from
// v1.7.0-aws (d87d61e0, 2023-05-31) 75 us on p4d, p4de, p5 and p5e, 150 us on p3dn ("a value below
// 75us is slightly better for large deployments, but makes NCCL choose the wrong algorithm for the
// 2 nodes case"), 150 elsewhere until v1.13.0-aws (d39f096c: 75 for platforms the table lacks);
// p5en 35 us from v1.16.0 (2496e7de, "based on empirical search"). 0 without the plugin (sockets,
// InfiniBand).
Time net_plugin_latency(const std::string& instance, const NicSpec& nic, const SoftwareSpec& sw);

// Sets spec.nccl, spec.nccl_proto_simple, spec.nccl_net_flush, spec.nccl_net_latency and
// spec.efa_gpu_read_protocol from `sw` (the rules above);
// apply_transport does it, and so does a log priced with its banner's release.
void apply_nccl_software(InstanceSpec& spec, const SoftwareSpec& sw);

// TCP flows per peer connection of NCCL's socket transport for this NIC and stack. With
// `vendor_visible` false (a Kubernetes pod's veth: TransportSpec::pod_network) NCCL cannot read the
// NIC's PCI vendor and takes its non-AWS defaults: 1 socket, no helper threads.
int nccl_sockets_per_connection(const SoftwareSpec& sw, const NicSpec& nic, bool vendor_visible = true);

// NCCL_SOCKET_NTHREADS as NCCL resolves it: helper threads per socket connection endpoint
// (net_socket.cc ncclNetSocketGetNsockNthread): 2 on an AWS NIC (PCI vendor 0x1d0f) from v2.4.8,
// else 0 ("By default, we only use the main thread and do not spawn extra threads": the proxy
// thread drives the socket and yields when nothing progressed); the environment variable wins.
int nccl_socket_helper_threads(const SoftwareSpec& sw, const NicSpec& nic, bool vendor_visible = true);

// EC2's single-flow limit (EC2 User Guide, "Amazon EC2 instance network bandwidth").
Bandwidth ec2_flow_limit(bool placement_group);

// True when NCCL runs its socket transport on this NIC with this stack (ENA, or EFA without aws-ofi-nccl).
bool uses_sockets(const NicSpec& nic, const SoftwareSpec& sw);

// Sets spec.nic's flow_cap and flows_per_connection from the NIC and `t`, and for the socket
// transport gpudirect = false (sockets always bounce through host memory); spec.nccl and
// spec.nccl_proto_simple and spec.nccl_net_flush from the software. Routes without
// GPUDirect are host-staged (topology/routing.cpp). Apply once, to a catalog instance.
void apply_transport(InstanceSpec& spec, const TransportSpec& t);

// The NIC as a library that drives EFA through libfabric itself sees it: where NCCL has no
// aws-ofi-nccl and so runs TCP sockets over an EFA device (NicSpec::nccl_sockets_on_efa), EFA's
// own path (SRD, no per-flow cap, no socket threads, the device's GPUDirect RDMA); else `nic`.
// SMDDP is such a library: it brings its own EFA transport and never loads NCCL's net plugin
// (SageMaker's PyTorch 1.6 DLC, which shipped SMDDP 1.0.0, has neither aws-ofi-nccl nor the EFA
// installer: aws/deep-learning-containers pytorch/training/docker/1.6.0/py3/cu110/Dockerfile.gpu).
NicSpec libfabric_nic(const NicSpec& nic);

// The NIC as a library on the kernel's TCP with one socket per peer sees it: Gloo (its tcp
// transport's Pair holds one socket, gloo/transport/tcp/pair.h `fd_`; PyTorch's ProcessGroupGloo
// connects one context per device, one device unless GLOO_SOCKET_IFNAME names several). Bytes
// bounce through host memory, and a connection between nodes is one flow: EC2's per-flow limit
// (NicSpec::tcp_flow_cap) on an AWS NIC, EFA or not (TCP runs on the device's ENA side).
NicSpec tcp_nic(const NicSpec& nic);

// The NIC as a classic parameter server's workers see it: ps-lite (Li et al., OSDI 2014;
// dmlc/ps-lite) sends over a ZeroMQ van unless told otherwise (src/postoffice.cc:
// `Van::Create("zmq")`), TCP with one DEALER socket from each worker to each server
// (src/zmq_van.h `Connect`), so what one node's `workers` GPUs push to a server on another node is
// that many TCP flows: tcp_nic with `workers` flows per connection.
NicSpec ps_lite_nic(const NicSpec& nic, int workers);

// The NIC as a communication library (a framework's backend: "nccl", "smddp", "gloo", "ps")
// drives it on nodes of `gpus_per_node` GPUs: SMDDP's libfabric_nic, Gloo's tcp_nic, the
// parameter server's ps_lite_nic (a worker per GPU), NCCL the node as apply_transport left it.
NicSpec nic_for_library(std::string_view library, const NicSpec& nic, int gpus_per_node);

}  // namespace ddpsim
