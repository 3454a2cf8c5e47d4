// The real measurement: CUDA runtime + NCCL. Compiled only with DDPSIM_HAVE_NCCL.
#include "calibrate/nccl_runner.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <string>

#include "core/error.hpp"

namespace ddpsim::calibrate {
namespace {

void cuda_ok(cudaError_t e, const char* what)
{
  if (e != cudaSuccess) throw UserError(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

void nccl_ok(ncclResult_t r, const char* what)
{
  if (r != ncclSuccess) throw UserError(std::string("NCCL: ") + what + ": " + ncclGetErrorString(r));
}

// Frees device memory and communicators whatever happens.
struct Resources {
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  std::vector<float*> send, recv;
  ~Resources()
  {
    for (std::size_t i = 0; i < comms.size(); ++i) {
      cudaSetDevice(static_cast<int>(i));
      if (send[i]) cudaFree(send[i]);
      if (recv[i]) cudaFree(recv[i]);
      if (streams[i]) cudaStreamDestroy(streams[i]);
      if (comms[i]) ncclCommDestroy(comms[i]);
    }
  }
};

}  // namespace

bool nccl_runner_available() { return true; }

NcclRun run_nccl_allreduce(const NcclSweep& sweep)
{
  int visible = 0;
  cuda_ok(cudaGetDeviceCount(&visible), "cudaGetDeviceCount (is there a GPU?)");
  const int n = sweep.gpus > 0 ? sweep.gpus : visible;
  if (n < 1 || n > visible)
    throw UserError("asked for " + std::to_string(n) + " GPUs, " + std::to_string(visible) + " visible");
  if (sweep.min_bytes < 4 || sweep.max_bytes < sweep.min_bytes || sweep.factor < 2)
    throw UserError("bad sweep: need 4 <= min-bytes <= max-bytes and factor >= 2");

  NcclRun run;
  run.gpus = n;
  cudaDeviceProp prop{};
  cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  run.device = prop.name;
  int version = 0;
  nccl_ok(ncclGetVersion(&version), "ncclGetVersion");
  run.nccl_version = std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
                     std::to_string(version % 100);

  Resources res;
  res.comms.assign(static_cast<std::size_t>(n), nullptr);
  res.streams.assign(static_cast<std::size_t>(n), nullptr);
  res.send.assign(static_cast<std::size_t>(n), nullptr);
  res.recv.assign(static_cast<std::size_t>(n), nullptr);
  nccl_ok(ncclCommInitAll(res.comms.data(), n, nullptr), "ncclCommInitAll");
  for (int i = 0; i < n; ++i) {
    cuda_ok(cudaSetDevice(i), "cudaSetDevice");
    cuda_ok(cudaStreamCreate(&res.streams[i]), "cudaStreamCreate");
    cuda_ok(cudaMalloc(&res.send[i], sweep.max_bytes), "cudaMalloc");
    cuda_ok(cudaMalloc(&res.recv[i], sweep.max_bytes), "cudaMalloc");
    cuda_ok(cudaMemset(res.send[i], 0, sweep.max_bytes), "cudaMemset");
  }

  auto all_reduce = [&](std::size_t count) {
    nccl_ok(ncclGroupStart(), "ncclGroupStart");
    for (int i = 0; i < n; ++i)
      nccl_ok(ncclAllReduce(res.send[i], res.recv[i], count, ncclFloat, ncclSum, res.comms[i], res.streams[i]),
              "ncclAllReduce");
    nccl_ok(ncclGroupEnd(), "ncclGroupEnd");
  };
  auto sync = [&] {
    for (int i = 0; i < n; ++i) {
      cuda_ok(cudaSetDevice(i), "cudaSetDevice");
      cuda_ok(cudaStreamSynchronize(res.streams[i]), "cudaStreamSynchronize");
    }
  };

  for (std::uint64_t bytes = sweep.min_bytes; bytes <= sweep.max_bytes; bytes *= static_cast<std::uint64_t>(sweep.factor)) {
    const std::size_t count = bytes / sizeof(float);
    for (int w = 0; w < sweep.warmup; ++w) all_reduce(count);
    sync();
    const auto t0 = std::chrono::steady_clock::now();
    for (int it = 0; it < sweep.iters; ++it) all_reduce(count);
    sync();
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / sweep.iters;
    NcclPoint p;
    p.bytes = count * sizeof(float);
    p.time_us = us;
    p.algbw_GBps = static_cast<double>(p.bytes) / (us * 1e3);
    p.busbw_GBps = p.algbw_GBps * 2.0 * (n - 1) / n;  // nccl-tests PERFORMANCE.md, all_reduce
    run.points.push_back(p);
    if (bytes > sweep.max_bytes / static_cast<std::uint64_t>(sweep.factor)) break;
  }
  return run;
}

}  // namespace ddpsim::calibrate
