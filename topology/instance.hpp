// What one instance type is made of: its GPU, how the GPUs are wired inside the node, its PCIe and
// CPU side, its NICs and its price. Plain data, filled from the catalog (topology/catalog/*.yaml,
// parsed in app/) and possibly overridden by a scenario. Every number in the catalog cites a source.
#pragma once

#include <string>
#include <vector>

#include "core/units.hpp"
#include "core/version.hpp"

namespace ddpsim {

enum class Precision { fp32, tf32, fp16, bf16 };

// NCCL_BUFFSIZE's default, 4 MiB in every release (v2.4.8-1 src/include/comm.h
// DEFAULT_BUFFER_SIZE_BYTES; v2.20.3-1 src/init.cc DEFAULT_BUFFSIZE).
inline constexpr std::uint64_t kNcclDefaultBuffsize = 4ULL << 20;

std::string_view to_string(Precision p);
// Bytes of one gradient element in this precision (tf32 keeps fp32 storage).
int bytes_per_element(Precision p);

struct GpuSpec {
  std::string name;
  Bytes memory;
  double fp32_tflops = 0;  // dense, vector units
  double tf32_tflops = 0;  // dense, tensor cores (0 = not supported: falls back to fp32)
  double fp16_tflops = 0;  // dense, tensor cores
  double bf16_tflops = 0;  // dense, tensor cores (0 = not supported)
  // HBM: the rate a streaming kernel reaches (the datasheet's x hbm_efficiency), which every
  // memory-bound cost uses; the datasheet's figure is kept so that an override rescales it.
  Bandwidth hbm;
  Bandwidth hbm_datasheet;
  double hbm_efficiency = 1;
  void set_hbm_efficiency(double e)
  {
    hbm_efficiency = e;
    hbm = Bandwidth{hbm_datasheet.bytes_per_s * e};
  }
  int compute_capability = 0;  // CUDA compute capability x 10 (V100 70, A100 80, H100 90); 0 unknown
  int sm_count = 0;            // streaming multiprocessors (NCCL runs one CTA per channel on its own); 0 unknown
  int nccl_ctas = 0;           // CTAs (channels) NCCL launches per collective in an 8-GPU node; 0 unknown

  // Peak dense throughput for a precision, falling back as the hardware does (no bf16 on V100).
  double peak_flops(Precision p) const;
};

enum class IntraNodeFabric { nvlink_mesh, nvswitch, pcie_only };

// The hosts' CPU maker: NCCL's model caps the LL protocol across nodes by it (algorithms/nccl_tuning.hpp).
enum class CpuVendor { intel, amd };
std::string_view to_string(CpuVendor v);
std::string_view to_string(IntraNodeFabric f);

// A direct NVLink connection between two GPUs of a mesh (DGX-1 hybrid cube-mesh), `links` bricks wide.
struct NvlinkPair {
  int a = 0, b = 0, links = 1;
};

struct NicSpec {
  std::string kind;        // "ena", "efa", "ib"
  int count = 1;           // NIC devices per node
  Bandwidth bandwidth;     // per NIC, per direction
  Time latency;            // one-way latency NIC to NIC through the fabric switch, split over the two uplinks
  bool gpudirect = false;  // GPUDirect RDMA: GPU memory goes to the NIC without a host bounce
  // Transport. TCP over ENA: EC2 caps each 5-tuple flow (`flow_cap`, per direction; 0 = no cap:
  // EFA's SRD sprays one connection over many paths); NCCL's socket transport opens
  // `flows_per_connection` sockets per peer connection (NCCL_SOCKET_NTHREADS x
  // NCCL_NSOCKS_PERTHREAD), so one ring hop across nodes gets at most flow_cap x that.
  Bandwidth flow_cap{0};
  int flows_per_connection = 1;
  // NCCL's socket helper threads per node that busy-poll while a collective crosses nodes (their
  // loop retries a non-blocking send/recv without yielding: src/transport/net_socket.cc
  // persistentSocketThread), taking vCPUs from the input pipeline (sim/step/loader.hpp). 0: none
  // (EFA, InfiniBand, or sockets driven by the proxy thread itself). Set by apply_transport.
  int spinning_threads = 0;
  // Set by apply_transport where NCCL reaches an EFA device through its socket transport (no
  // aws-ofi-nccl): the transport fields above are then NCCL's sockets, and `efa_gpudirect` keeps
  // the device's own GPUDirect RDMA for a library that drives EFA through libfabric itself
  // (SMDDP: libfabric_nic in topology/transport.hpp).
  bool nccl_sockets_on_efa = false;
  bool efa_gpudirect = false;
  // What one TCP flow between nodes gets, whoever opens it: EC2's per-flow limit on an AWS NIC
  // (5 Gbps, 10 inside a cluster placement group); 0: no cap. Set by apply_transport; NCCL's
  // sockets open several per connection (flow_cap), Gloo one per peer (tcp_nic).
  Bandwidth tcp_flow_cap{0};
};

// Achievable fraction of line rate per link class: what a NCCL-style transfer can get out of a
// link after protocol framing (NVLink packet headers, PCIe TLP/DLLP, Ethernet/IB frames). The
// Topology multiplies every link's line rate by its class's fraction, so every algorithm and both
// network engines see achievable rates; a calibration profile's efficiency is relative to these.
// Defaults 1 (line rate); the catalog sets each with its source; `cluster.overrides.efficiency`
// changes them. Unitless, in (0, 1].
struct LinkEfficiency {
  double nvlink = 1;            // GPU-to-GPU NVLink bricks (mesh) and NVLink to the NVSwitch plane
  double pcie = 1;              // GPU/NIC to PCIe switch to CPU
  double cpu_interconnect = 1;  // socket to socket
  double nic = 1;               // NIC to fabric switch and the fabric's own links
  double nvls = 1;              // NVLink SHARP (multimem) operations, relative to NVLink's achievable rate
};

struct InstanceSpec {
  std::string name;
  std::string description;
  GpuSpec gpu;
  int gpus = 8;

  IntraNodeFabric intra = IntraNodeFabric::nvswitch;
  Bandwidth nvlink_per_link;     // per direction, one NVLink brick (mesh)
  std::vector<NvlinkPair> nvlink_pairs;
  Bandwidth nvswitch_per_gpu;    // per direction, each GPU to the NVSwitch plane
  Time nvlink_latency;           // one NVLink hop

  int pcie_switches = 4;         // GPUs and NICs are spread evenly over them
  Bandwidth pcie;                // per direction, GPU or NIC to its PCIe switch and switch to CPU
  Time pcie_latency;             // one PCIe hop
  int cpu_sockets = 2;
  CpuVendor cpu_vendor = CpuVendor::intel;  // NCCL treats any CPU that is not AMD as Intel's row
  Bandwidth cpu_interconnect;    // socket to socket (QPI/UPI), per direction
  Bandwidth cpu_memory;          // per socket; used for host-side reductions (parameter servers)
  int vcpus = 0;

  NicSpec nic;
  LinkEfficiency efficiency;

  bool smddp_supported = false;   // listed by SageMaker's data-parallel library (SMDDP)
  // The NCCL release the nodes run (scenario `software.nccl`, set by apply_transport): which of
  // NCCL's algorithms and protocols exist (algorithms/nccl_tuning.hpp nccl_since).
  Version nccl = kDefaultNccl;
  // The net plugin sets NCCL_PROTO=simple on these nodes (aws-ofi-nccl on p3dn, p4d, p4de, ...;
  // topology/transport.hpp): NCCL then runs the Simple protocol only, unless the user named one.
  bool nccl_proto_simple = false;
  // NCCL flushes each Simple receive that GPUDirect RDMA put in GPU memory (set by apply_transport;
  // topology/transport.hpp nccl_flushes): one more NIC latency per inter-node hop where nic.gpudirect.
  bool nccl_net_flush = false;
  // libfabric before 1.15 reaches GPU memory over EFA by its read-message protocol and local-read
  // copies (set by apply_transport; topology/transport.hpp efa_gpu_read_protocol): two more NIC
  // latencies per inter-node hop for LL128 and Simple, one for LL.
  bool efa_gpu_read_protocol = false;
  // The network latency the net plugin reports to NCCL (ncclNetProperties_t::latency, set by
  // apply_transport; topology/transport.hpp net_plugin_latency): NCCL's own estimate, the one it
  // chooses by, charges it per network hop (algorithms/nccl_tuning.hpp nccl_estimated_latency).
  // 0 for NCCL's own InfiniBand and socket transports. Not a price: the price takes nic.latency.
  Time nccl_net_latency{};
  // The net plugin carries aws-ofi-nccl's region tuner (set by apply_transport; topology/transport.hpp
  // kOfiRegionTuner): false where the nodes run an older plugin or none, so NCCL's own model chooses.
  bool nccl_net_tuner = true;
  // NCCL_BUFFSIZE (scenario `software.nccl_buffsize`, set by apply_transport): the Simple protocol's
  // buffer per channel and peer, NCCL_STEPS = 8 steps of it; a tree forwards one step at a time
  // (sim/network/collective_model.cpp, the chunk fill).
  Bytes nccl_buffsize{kNcclDefaultBuffsize};
  // The channels NCCL runs across nodes, where a scenario states them (`software.nccl_channels`,
  // set by apply_transport); 0: as modelled, one per NIC (sim/network/collective_model.hpp).
  int nccl_channels = 0;

  double price_usd_per_hour = 0;  // on-demand, us-east-1
  std::string price_source;
  std::vector<std::string> sources;  // where the numbers above come from
};

}  // namespace ddpsim
