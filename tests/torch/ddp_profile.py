#!/usr/bin/env python3
"""Profiles a real training run of a small CNN under PyTorch DDP on the CPU (gloo, 2 processes)
with torch.profiler and writes rank 0's Kineto trace (issue 19): the trace the importer reads in
tests/cli/torch_trace.sh. Usage: ddp_profile.py OUT.json [BUCKET_CAP_MB]"""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def model():
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(32 * 16, 256), nn.ReLU(), nn.Linear(256, 10))


def run(rank, world, out, cap):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.set_num_threads(1)
    net = DDP(model(), bucket_cap_mb=cap)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    data = torch.randn(8, 3, 16, 16)
    target = torch.randint(0, 10, (8,))
    sched = torch.profiler.schedule(wait=1, warmup=2, active=3, repeat=1)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], schedule=sched,
                                record_shapes=True) as prof:
        for _ in range(7):
            opt.zero_grad()
            loss = loss_fn(net(data), target)
            loss.backward()
            opt.step()
            prof.step()
    if rank == 0:
        prof.export_chrome_trace(out)
    dist.destroy_process_group()


if __name__ == "__main__":
    out = sys.argv[1]
    cap = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
    os.environ["MASTER_PORT"] = os.environ.get("MASTER_PORT", str(29500 + os.getpid() % 1000))
    mp.spawn(run, args=(2, out, cap), nprocs=2, join=True)
