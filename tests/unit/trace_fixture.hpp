// A hand-made Kineto trace whose every number is known (tests/unit/test_trace_import.cpp):
// one step of three operators (conv, relu, linear), their backward linked by fwdbwd flows, two
// DDP buckets, an optimizer and a DataLoader wait. Times in microseconds; the expected split is
// worked out in the test.
#pragma once

#include <string>

namespace ddpsim::test {

// One step starting at `t0`, its ProfilerStep span `span` long; ids offset by `id0`.
inline std::string trace_step(double t0, double span, int id0)
{
  auto X = [&](const char* cat, const char* name, const char* pid, const char* tid, double ts, double dur,
               const std::string& args = "") {
    return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)" + pid + R"(,"tid":)" + tid +
           R"(,"ts":)" + std::to_string(t0 + ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}},\n";
  };
  auto corr = [&](int c) { return R"("correlation":)" + std::to_string(id0 + c); };
  auto flow = [&](const char* ph, const char* cat, int id, const char* tid, double ts) {
    return std::string(R"({"ph":")") + ph + R"(","cat":")" + cat + R"(","name":")" + cat + R"(","id":)" +
           std::to_string(id0 + id) + R"(,"pid":1,"tid":)" + tid + R"(,"ts":)" + std::to_string(t0 + ts) + "},\n";
  };
  auto comms = [](int n) {
    return R"("Collective name":"allreduce","In msg nelems":)" + std::to_string(n) + R"(,"dtype":"Float")";
  };
  const char* fn = "autograd::engine::evaluate_function: ";
  std::string s;
  s += X("user_annotation", "ProfilerStep#1", "1", "1", 0, span);
  s += X("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "1", "1", 2, 5);
  // Forward: conv (kernel 40-90), relu (CPU only), linear (kernel 150-190).
  s += X("cpu_op", "aten::conv2d", "1", "1", 10, 20) + X("cuda_runtime", "cudaLaunchKernel", "1", "1", 15, 2, corr(1));
  s += X("kernel", "conv_kernel", "0", "7", 40, 50, corr(1));
  s += X("cpu_op", "aten::relu", "1", "1", 100, 10);
  s += X("cpu_op", "aten::linear", "1", "1", 120, 30) + X("cuda_runtime", "cudaLaunchKernel", "1", "1", 125, 2, corr(2));
  s += X("kernel", "gemm_kernel", "0", "7", 150, 40, corr(2));
  // Backward on the autograd thread (tid 2).
  s += X("cpu_op", (std::string(fn) + "AddmmBackward0").c_str(), "1", "2", 200, 20);
  s += X("cuda_runtime", "cudaLaunchKernel", "1", "2", 205, 2, corr(3)) + X("kernel", "gemm_bw", "0", "7", 220, 30, corr(3));
  s += flow("s", "fwdbwd", 10, "1", 120) + flow("f", "fwdbwd", 10, "2", 200);
  s += X("cpu_op", (std::string(fn) + "torch::autograd::AccumulateGrad").c_str(), "1", "2", 255, 20);
  s += X("cpu_op", "record_param_comms", "1", "2", 260, 10, comms(1000));
  s += X("cuda_runtime", "cudaLaunchKernel", "1", "2", 262, 2, corr(4));
  s += X("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float", "0", "40", 265, 100, corr(4));
  s += X("cpu_op", (std::string(fn) + "ReluBackward0").c_str(), "1", "2", 280, 10);
  s += flow("s", "fwdbwd", 11, "1", 100) + flow("f", "fwdbwd", 11, "2", 280);
  s += X("cpu_op", (std::string(fn) + "ConvolutionBackward0").c_str(), "1", "2", 300, 20);
  s += X("cuda_runtime", "cudaLaunchKernel", "1", "2", 305, 2, corr(5)) + X("kernel", "conv_bw", "0", "7", 320, 60, corr(5));
  s += flow("s", "fwdbwd", 12, "1", 10) + flow("f", "fwdbwd", 12, "2", 300);
  s += X("cpu_op", (std::string(fn) + "torch::autograd::AccumulateGrad").c_str(), "1", "2", 385, 10);
  s += X("cpu_op", "record_param_comms", "1", "2", 388, 5, comms(500));
  // Launched through an ac2g flow only (no cuda_runtime event): the flow ties it to its launch.
  s += flow("s", "ac2g", 6, "2", 390);
  s += X("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float", "0", "40", 400, 50, corr(6));
  s += X("cpu_op", "torch.distributed.ddp.reducer::copy_bucket_to_grad", "1", "2", 460, 10);
  // Optimizer: 500-600 on the CPU, its kernel ends at 620.
  s += X("user_annotation", "Optimizer.step#SGD.step", "1", "1", 500, 100);
  s += X("cpu_op", "aten::_foreach_add_", "1", "1", 510, 50) + X("cuda_runtime", "cudaLaunchKernel", "1", "1", 520, 2, corr(7));
  s += X("kernel", "sgd_kernel", "0", "7", 560, 60, corr(7));
  return s;
}

inline std::string trace_document(const std::string& events)
{
  std::string e = events;
  if (e.size() >= 2) e.resize(e.size() - 2);  // the last ",\n"
  return R"({"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":0,"world_size":2},)"
         R"("deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-40GB","totalGlobalMem":42297524224}],)"
         R"("traceEvents":[)" + e + "]}";
}

}  // namespace ddpsim::test
