// What one instance type is made of: its GPU, how the GPUs are wired inside the node, its PCIe and
// CPU side, its NICs and its price. Plain data, filled from the catalog (topology/catalog/*.yaml,
// parsed in app/) and possibly overridden by a scenario. Every number in the catalog cites a source.
#pragma once

#include <string>
#include <vector>

#include "core/units.hpp"

namespace ddpsim {

enum class Precision { fp32, tf32, fp16, bf16 };

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
  Bandwidth hbm;           // memory bandwidth
  int compute_capability = 0;  // CUDA compute capability x 10 (V100 70, A100 80, H100 90); 0 unknown

  // Peak dense throughput for a precision, falling back as the hardware does (no bf16 on V100).
  double peak_flops(Precision p) const;
};

enum class IntraNodeFabric { nvlink_mesh, nvswitch, pcie_only };
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
  Bandwidth cpu_interconnect;    // socket to socket (QPI/UPI), per direction
  Bandwidth cpu_memory;          // per socket; used for host-side reductions (parameter servers)
  int vcpus = 0;

  NicSpec nic;

  bool smddp_supported = false;   // listed by SageMaker's data-parallel library (SMDDP)

  double price_usd_per_hour = 0;  // on-demand, us-east-1
  std::string price_source;
  std::vector<std::string> sources;  // where the numbers above come from
};

}  // namespace ddpsim
