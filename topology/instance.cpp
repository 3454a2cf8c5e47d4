#include "topology/instance.hpp"

namespace ddpsim {

std::string_view to_string(Precision p)
{
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
  }
  return "?";
}

int bytes_per_element(Precision p) { return (p == Precision::fp16 || p == Precision::bf16) ? 2 : 4; }

double GpuSpec::peak_flops(Precision p) const
{
  double tflops = fp32_tflops;
  switch (p) {
    case Precision::fp32: tflops = fp32_tflops; break;
    case Precision::tf32: tflops = tf32_tflops > 0 ? tf32_tflops : fp32_tflops; break;
    case Precision::fp16: tflops = fp16_tflops > 0 ? fp16_tflops : fp32_tflops; break;
    case Precision::bf16: tflops = bf16_tflops > 0 ? bf16_tflops : (fp32_tflops); break;
  }
  return tflops * 1e12;
}

std::string_view to_string(IntraNodeFabric f)
{
  switch (f) {
    case IntraNodeFabric::nvlink_mesh: return "nvlink-mesh";
    case IntraNodeFabric::nvswitch: return "nvswitch";
    case IntraNodeFabric::pcie_only: return "pcie";
  }
  return "?";
}

std::string_view to_string(CpuVendor v) { return v == CpuVendor::amd ? "amd" : "intel"; }

}  // namespace ddpsim
