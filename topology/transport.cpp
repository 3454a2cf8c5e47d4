#include "topology/transport.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace ddpsim {

// aws-ofi-nccl knows a platform by its EC2 name (/sys/devices/virtual/dmi/id/product_name); a
// SageMaker "ml." name runs on that instance.
static std::string_view platform(std::string_view name) { return name.substr(0, 3) == "ml." ? name.substr(3) : name; }

// AWS's ENA and EFA are PCI vendor 0x1d0f (Amazon), the vendor NCCL's auto-detection looks for.
static bool aws_nic(const NicSpec& nic) { return nic.kind == "ena" || nic.kind == "efa"; }

// One connection per peer of one flow at `cap` (0: none), no helper threads spinning, no longer
// NCCL's sockets: what is left of a NIC's transport fields when a library's own transport runs.
static NicSpec one_flow(NicSpec nic, Bandwidth cap)
{
  nic.flow_cap = cap;
  nic.flows_per_connection = 1;
  nic.spinning_threads = 0;
  nic.nccl_sockets_on_efa = false;
  return nic;
}

// NCCL_SOCKET_NTHREADS and NCCL_NSOCKS_PERTHREAD as NCCL resolves them (net_socket.cc
// ncclNetSocketGetNsockNthread, v2.4.8-1 .. today): unset ones are auto-detected from
// /sys/class/net/<if>/device/vendor, 2 threads x 8 sockets on 0x1d0f (AWS), else 0 helper threads
// and 1 socket ("we only use the main thread and do not spawn extra threads"). A pod's veth has no
// PCI device, so the read fails and NCCL takes the default. MAX_THREADS 16, MAX_SOCKETS 64.
// Before v2.4.8 neither variable exists (net_socket.cc at v2.4.6-1): the proxy thread drives one socket.
static std::pair<int, int> socket_threads_and_socks(const SoftwareSpec& sw, const NicSpec& nic, bool vendor_visible)
{
  if (sw.nccl < kNcclMultiSocket) return {0, 1};
  const bool aws = vendor_visible && aws_nic(nic);
  int nt = sw.socket_nthreads == -2 ? (aws ? 2 : 0) : std::clamp(sw.socket_nthreads, 0, 16);
  int ns = sw.nsocks_perthread == -2 ? (aws ? 8 : 1) : std::max(sw.nsocks_perthread, 1);
  if (nt > 0 && nt * ns > 64) ns = 64 / nt;
  return {nt, ns};
}

int nccl_sockets_per_connection(const SoftwareSpec& sw, const NicSpec& nic, bool vendor_visible)
{
  const auto [nt, ns] = socket_threads_and_socks(sw, nic, vendor_visible);
  return nt == 0 ? 1 : nt * ns;  // no helper threads: the data goes over the control socket
}

bool nccl_buffsize_ok(Bytes b) { return b.n >= 64 * KiB && b.n <= GiB; }

Bandwidth ec2_flow_limit(bool placement_group)
{
  // "Bandwidth for single-flow traffic is limited to 5 Gbps when instances are not in the same
  // cluster placement group" / "up to 10 Gbps ... within the same placement group".
  return Bandwidth::gbps(placement_group ? 10 : 5);
}

Version aws_ofi_nccl_release(const SoftwareSpec& sw)
{
  if (sw.aws_ofi_nccl == "none") return Version{};
  if (Version v; parse_version(sw.aws_ofi_nccl, v)) return v;
  return sw.nccl < kNcclOfOfi16Era ? Version{1, 5, 0} : kDefaultAwsOfiNccl;
}

Version libfabric_release(const SoftwareSpec& sw)
{
  if (Version v; !sw.libfabric.empty() && parse_version(sw.libfabric, v)) return v;
  if (Version v; !sw.efa_installer.empty() && parse_version(sw.efa_installer, v)) return libfabric_of_efa_installer(v).libfabric;
  return libfabric_of_nccl(sw.nccl);
}

bool efa_read_protocol_priced(const InstanceSpec& inst) { return inst.efa_gpu_read_protocol && inst.nic.gpudirect; }

bool efa_gpu_read_protocol(const NicSpec& nic, const SoftwareSpec& sw)
{
  return !uses_sockets(nic, sw) && nic.kind == "efa" && nic.gpudirect && libfabric_release(sw) < kLibfabricGdrcopy;
}

bool net_plugin_forces_simple(const std::string& instance, const NicSpec& nic, const SoftwareSpec& sw)
{
  if (uses_sockets(nic, sw) || nic.kind != "efa" || sw.nccl < kNcclReadsProto) return false;
  const Version ofi = aws_ofi_nccl_release(sw);
  if (ofi < kOfiSetsProtoSimple) return false;
  if (platform(instance) == "p5.48xlarge") return ofi < kOfiP5LowLatency;
  if (platform(instance) == "p5en.48xlarge") return ofi < kOfiP5enLowLatency;
  // p3dn (no RDMA, GPUDirect unsupported) and p4d/p4de (first-generation EFA: no in-order
  // aligned 128-byte delivery); an EFA instance the rules do not name is taken as these.
  return true;
}

bool nccl_flushes(const InstanceSpec& spec, const SoftwareSpec& sw)
{
  if (uses_sockets(spec.nic, sw)) return false;
  const int cc = spec.gpu.compute_capability;
  if (cc > 0 && cc < 90) return true;
  if (sw.nccl >= kNcclHopperNoFlush) return false;
  const std::string_view name = platform(spec.name);
  const bool p5 = name == "p5.48xlarge" || name == "p5e.48xlarge" || name == "p5en.48xlarge";
  return !(p5 && spec.nic.kind == "efa" && aws_ofi_nccl_release(sw) >= kOfiP5NoFlush);
}

int efa_devices_per_gpu(const std::string& instance)
{
  // The catalog models a GPU's EFA devices as one NIC of their summed rate (instances.yaml:
  // "modelled as 8x 400 Gbps"); the devices themselves, per EC2's instance specifications.
  const std::string_view name = platform(instance);
  if (name == "p5.48xlarge" || name == "p5e.48xlarge") return 4;  // 32 x 100 Gbps for 8 GPUs
  if (name == "p5en.48xlarge") return 2;                           // 16 x 200 Gbps for 8 GPUs
  return 1;
}

bool aws_ofi_rdma_protocol(const InstanceSpec& spec, const SoftwareSpec& sw)
{
  return !uses_sockets(spec.nic, sw) && spec.nic.kind == "efa" && efa_devices_per_gpu(spec.name) > 1 &&
         aws_ofi_nccl_release(sw) >= kOfiRdmaProtocol;
}

bool net_plugin_stripes_small_messages(const InstanceSpec& spec, const SoftwareSpec& sw)
{
  return aws_ofi_rdma_protocol(spec, sw) && aws_ofi_nccl_release(sw) < kOfiRailThreshold256K;
}

bool efa_mid_size_read_unpriced(const InstanceSpec& spec, const SoftwareSpec& sw)
{
  if (uses_sockets(spec.nic, sw) || spec.nic.kind != "efa" || !spec.nic.gpudirect) return false;
  return libfabric_release(sw) >= kLibfabricGpuReadAboveEager && !aws_ofi_rdma_protocol(spec, sw);
}

Time net_plugin_latency(const std::string& instance, const NicSpec& nic, const SoftwareSpec& sw)
{
  if (uses_sockets(nic, sw) || nic.kind != "efa") return Time{0};
  const Version ofi = aws_ofi_nccl_release(sw);
  if (ofi < Version{1, 2, 0}) return Time{0};
  if (ofi < Version{1, 7, 0}) return Time::from_us(150);
  const std::string_view name = platform(instance);
  if (name == "p3dn.24xlarge") return Time::from_us(150);
  if (name == "p4d.24xlarge" || name == "p4de.24xlarge" || name == "p5.48xlarge" || name == "p5e.48xlarge") return Time::from_us(75);
  if (name == "p5en.48xlarge") return Time::from_us(ofi < Version{1, 16, 0} ? 75 : 35);
  return Time::from_us(ofi < Version{1, 13, 0} ? 150 : 75);
}

void apply_nccl_software(InstanceSpec& spec, const SoftwareSpec& sw)
{
  spec.nccl = sw.nccl;
  spec.nccl_net_latency = net_plugin_latency(spec.name, spec.nic, sw);
  spec.nccl_proto_simple = net_plugin_forces_simple(spec.name, spec.nic, sw);
  spec.nccl_net_flush = nccl_flushes(spec, sw);
  spec.efa_gpu_read_protocol = efa_gpu_read_protocol(spec.nic, sw);
  spec.nccl_buffsize = sw.nccl_buffsize;
  spec.nccl_channels = sw.nccl_channels;
  spec.nccl_net_tuner = !uses_sockets(spec.nic, sw) && spec.nic.kind == "efa" && aws_ofi_nccl_release(sw) >= kOfiRegionTuner;
}

bool uses_sockets(const NicSpec& nic, const SoftwareSpec& sw)
{
  return nic.kind == "ena" || (nic.kind == "efa" && sw.aws_ofi_nccl == "none");
}

int nccl_socket_helper_threads(const SoftwareSpec& sw, const NicSpec& nic, bool vendor_visible)
{
  return socket_threads_and_socks(sw, nic, vendor_visible).first;
}

void apply_transport(InstanceSpec& spec, const TransportSpec& t)
{
  NicSpec& nic = spec.nic;
  apply_nccl_software(spec, t.software);
  nic.tcp_flow_cap = aws_nic(nic) ? ec2_flow_limit(t.placement_group) : Bandwidth{0};
  if (uses_sockets(nic, t.software)) {
    // NCCL's socket transport: TCP over ENA (an EFA device also carries ENA traffic). Bytes go
    // GPU -> host buffer -> kernel socket -> NIC (no GPUDirect over sockets). An EFA device keeps
    // its own GPUDirect for libraries that drive it directly (libfabric_nic).
    if (nic.kind == "efa" && !nic.nccl_sockets_on_efa) {
      nic.nccl_sockets_on_efa = true;
      nic.efa_gpudirect = nic.gpudirect;
    }
    nic.gpudirect = false;
    // NCCL_MIN_NRINGS rings each open a connection to the next node: the hop gets them all (the
    // model runs one channel per NIC between nodes, docs/model.md "Transports").
    nic.flows_per_connection = nccl_sockets_per_connection(t.software, nic, !t.pod_network) * std::max(1, t.software.min_nrings);
    nic.flow_cap = nic.tcp_flow_cap;
    // Threads that spin while a collective crosses nodes: NCCL's search finds one ring per NIC
    // here and doubles every channel (src/graph/connect.cc, v2.21.5-1: "Duplication should be
    // complete now", nChannels * 2), NCCL_MIN_NRINGS raises that; each channel has a send and a
    // receive endpoint on the node, each with its own helper threads ("each GPU has its own set of
    // network threads", sjeaugey, NVIDIA/nccl #398).
    const int channels = std::max(2 * std::max(1, nic.count), t.software.min_nrings);
    nic.spinning_threads = 2 * channels * nccl_socket_helper_threads(t.software, nic, !t.pod_network);
    return;
  }
  // aws-ofi-nccl over EFA (SRD sprays a connection over many paths: no per-flow cap), or verbs;
  // host-staged where the catalog says the NIC has no GPUDirect RDMA (p3dn: aws-ofi-nccl sets
  // gdr_required=false there, aws/aws-ofi-nccl #104).
  nic = one_flow(libfabric_nic(nic), Bandwidth{0});
}

NicSpec tcp_nic(const NicSpec& nic)
{
  NicSpec tcp = one_flow(nic, nic.tcp_flow_cap);
  tcp.gpudirect = false;
  return tcp;
}

NicSpec libfabric_nic(const NicSpec& nic)
{
  if (!nic.nccl_sockets_on_efa) return nic;
  NicSpec efa = one_flow(nic, Bandwidth{0});
  efa.gpudirect = nic.efa_gpudirect;
  return efa;
}

NicSpec ps_lite_nic(const NicSpec& nic, int workers)
{
  NicSpec ps = tcp_nic(nic);
  ps.flows_per_connection = std::max(1, workers);
  return ps;
}

NicSpec nic_for_library(std::string_view library, const NicSpec& nic, int gpus_per_node)
{
  if (library == "smddp") return libfabric_nic(nic);
  if (library == "gloo") return tcp_nic(nic);
  if (library == "ps") return ps_lite_nic(nic, gpus_per_node);
  return nic;
}

}  // namespace ddpsim
