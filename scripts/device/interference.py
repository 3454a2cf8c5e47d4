#!/usr/bin/env python3
"""How much does a communication kernel running beside training compute slow it, on this GPU?

Measures the model's interference mechanism (docs/model.md "Per-step overheads", interference;
sim/step/overheads.cpp overlap_slowdown) on a real GPU: a training step (PyTorch) runs while C
thread blocks of a reduce-copy kernel (what an NCCL ring channel does to HBM: read two chunks,
write their sum; one 512-thread block per channel, NCCL's NCCL_NTHREADS default) run on another
stream for the whole step. The step time with the kernel over the step time alone is the
measured slowdown; the model's is max(SMs / (SMs - C), HBM / (HBM - the kernel's HBM rate)).

The kernel is an emulation: a single GPU cannot run a real multi-rank NCCL collective (NCCL
refuses two ranks on one device). It may run at HBM speed (an upper bound) or throttled to a
target HBM rate (what a collective limited by its links puts on HBM).

Prints one JSON object. Needs torch, torchvision and cupy. Used by scripts/device/h100_measure.sh.
"""
import json
import math
import statistics
import sys

import cupy
import torch

from steps import resnet50  # (precision, batch, channels_last): the same step as steps.py

KERNEL = r"""
extern "C" __global__ void reduce_copy(const float4* a, const float4* b, float4* out,
                                       long long n4_per_block, int reps, long long ns_per_chunk,
                                       int chunk4) {
  const long long base = (long long)blockIdx.x * n4_per_block;
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  long long chunks = 0;
  for (int r = 0; r < reps; ++r) {
    for (long long off = 0; off < n4_per_block; off += chunk4) {
      const long long end = off + chunk4 < n4_per_block ? off + chunk4 : n4_per_block;
      for (long long i = off + threadIdx.x; i < end; i += blockDim.x) {
        const float4 x = a[base + i], y = b[base + i];
        out[base + i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
      }
      ++chunks;
      if (ns_per_chunk > 0) {
        if (threadIdx.x == 0) {
          for (;;) {
            unsigned long long t;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            if (t - t0 >= (unsigned long long)(chunks * ns_per_chunk)) break;
            __nanosleep(500);
          }
        }
        __syncthreads();
      }
    }
  }
}
"""

THREADS = 512                 # NCCL_NTHREADS default (NVIDIA/nccl docs env.rst)
SLICE_BYTES = 8 << 20         # per block and buffer
CHUNK4 = (64 << 10) // 16     # 64 KiB of each buffer per throttle check


class Comm:
    def __init__(self, blocks):
        self.blocks = blocks
        n4 = blocks * SLICE_BYTES // 16
        self.n4_per_block = SLICE_BYTES // 16
        self.a = cupy.ones(n4 * 4, dtype=cupy.float32)
        self.b = cupy.ones(n4 * 4, dtype=cupy.float32)
        self.out = cupy.empty(n4 * 4, dtype=cupy.float32)
        self.kernel = cupy.RawKernel(KERNEL, "reduce_copy")
        self.stream = cupy.cuda.Stream(non_blocking=True)

    def hbm_bytes(self, reps):  # two reads and one write per element
        return 3 * SLICE_BYTES * self.blocks * reps

    def launch(self, reps, rate):
        ns = 0
        if rate:
            chunk_hbm = 3 * CHUNK4 * 16
            ns = int(round(chunk_hbm / (rate / self.blocks) * 1e9))
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(self.stream)
        self.kernel((self.blocks,), (THREADS,),
                    (self.a, self.b, self.out, cupy.int64(self.n4_per_block), cupy.int32(reps),
                     cupy.int64(ns), cupy.int32(CHUNK4)), stream=self.stream)
        end.record(self.stream)
        return start, end

    def alone(self, rate):
        """Seconds per rep and the HBM rate, with nothing else on the GPU."""
        self.launch(1, rate)[1].synchronize()  # warm
        reps = 4
        s, e = self.launch(reps, rate)
        e.synchronize()
        sec = cupy.cuda.get_elapsed_time(s, e) / 1e3
        return sec / reps, self.hbm_bytes(reps) / sec


def gemm(n, reps):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)

    def step():
        for _ in range(reps):
            torch.matmul(a, b)
    return step


def stream_add(elements, reps):  # memory-bound: reads two tensors, writes one
    a = torch.ones(elements, device="cuda")
    b = torch.ones(elements, device="cuda")
    c = torch.empty(elements, device="cuda")

    def step():
        for _ in range(reps):
            torch.add(a, b, out=c)
    return step


def transformer(batch, seq, layers):
    layer = torch.nn.TransformerEncoderLayer(1024, 16, 4096, batch_first=True, dropout=0.0)
    model = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    x = torch.randn(batch, seq, 1024, device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(x).float().pow(2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def time_steps(step, n, stream):
    with torch.cuda.stream(stream):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(stream)
        for _ in range(n):
            step()
        end.record(stream)
    end.synchronize()
    return start.elapsed_time(end) / 1e3 / n


def main():
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    hbm = float(sys.argv[1]) if len(sys.argv) > 1 else 3350e9  # catalog H100 SXM HBM3
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    stream = torch.cuda.Stream()
    makers = {
        "gemm_bf16_8192_x10": lambda: (gemm(8192, 10), 10, (8, 16, 32), (None, 0.3e12)),
        "add_fp32_256M_x10": lambda: (stream_add(1 << 28, 10), 10, (8, 16, 32), (None, 0.3e12)),
        "transformer_1024x24_bf16_b32_s512": lambda: (transformer(32, 512, 24), 10, (8, 16, 32), (None, 0.3e12)),
        "resnet50_fp16_b256_nchw": lambda: (resnet50("amp-fp16", 256, False), 12, (8, 16, 32), (None, 0.3e12)),
        "resnet50_fp16_b256_nhwc": lambda: (resnet50("amp-fp16", 256, True), 12, (1, 16), (None,)),
        "resnet50_bf16_b256_nhwc": lambda: (resnet50("amp-bf16", 256, True), 12, (1, 16), (None,)),
        "resnet50_tf32_b256_nhwc": lambda: (resnet50("tf32", 256, True), 8, (1, 16), (None,)),
    }
    chosen = sys.argv[2:] or list(makers)[:5]
    workloads = {name: makers[name]() for name in chosen}
    out = {"device": props.name, "sms": sms, "hbm_catalog_Bps": hbm, "torch": torch.__version__,
           "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(), "cupy": cupy.__version__,
           "threads_per_block": THREADS, "rows": []}
    for name, (step, n, block_counts, rates) in workloads.items():
        with torch.cuda.stream(stream):
            for _ in range(8):
                step()
        torch.cuda.synchronize()
        base = statistics.median(time_steps(step, n, stream) for _ in range(3))
        out["rows"].append({"workload": name, "blocks": 0, "target_Bps": None, "step_s": base})
        window = base * n
        for blocks in block_counts:
            comm = Comm(blocks)
            for rate in rates:
                per_rep, alone_rate = comm.alone(rate)
                reps = max(1, math.ceil((2.0 * window + 0.3) / per_rep))
                times = []
                covered = True
                for _ in range(3):
                    s, e = comm.launch(reps, rate)
                    t = time_steps(step, n, stream)
                    covered = covered and not e.done  # the kernel outlasted the timed steps
                    e.synchronize()
                    times.append(t)
                t = statistics.median(times)
                model = max(sms / (sms - blocks), hbm / max(hbm - alone_rate, 0.05 * hbm))
                out["rows"].append({"workload": name, "blocks": blocks, "target_Bps": rate,
                                    "comm_alone_Bps": alone_rate, "step_s": t,
                                    "measured_slowdown": t / base, "model_slowdown": model,
                                    "kernel_covered_steps": covered})
                print(f"{name} blocks={blocks} rate={rate} alone={alone_rate/1e9:.0f} GB/s "
                      f"slowdown measured {t/base:.4f} model {model:.4f} covered={covered}",
                      file=sys.stderr, flush=True)
            del comm
            cupy.get_default_memory_pool().free_all_blocks()
    out["kernels"] = {}
    for name in [w for w in workloads if w.startswith("resnet50")]:
        step = workloads[name][0]
        from torch.profiler import profile, ProfilerActivity
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            step()
            torch.cuda.synchronize()
        names = {}
        for ev in prof.events():
            key = ev.name
            if "norm" in key.lower() or "bn_" in key.lower() or "Cooperative" in key or "LaunchKernelEx" in key:
                names[key] = names.get(key, 0) + 1
        out["kernels"][name] = names
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
