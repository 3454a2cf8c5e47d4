#!/usr/bin/python3
"""ddp_buckets.py DDPSIM REPO: ddpsim's DDP buckets against the real Reducer's, byte for byte.

For each torchvision model below (and a small transformer of "the user's own code"), scripts/export_model.py writes a ddpsim model file; real
torch.nn.parallel.DistributedDataParallel runs it (gloo, world size 2: two processes on this CPU,
init_method file://) for two iterations at each bucket cap, so that the Reducer has rebuilt its
buckets in the order the gradients became ready (Reducer::rebuild_buckets, at the second
iteration's forward); its buckets (reducer._get_zeros_like_grad_buckets(): one flat buffer per
bucket, in launch order) must equal `bucket_bytes` of `ddpsim scenario --format json` for a
scenario with `model.file` and the same caps. torch 1.13 caps the first bucket at
dist._DEFAULT_FIRST_BUCKET_BYTES (1 MiB) whatever bucket_cap_mb is; the scenarios say so with
first_bucket_mb: 1. Exit 0 all equal, 1 a difference, 77 (skipped) without python3-torch.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

# (model, one sample's shape, token ids below this or 0 for real inputs). Small inputs: the
# buckets do not depend on the input size. lm_fixture:tiny_lm is "the user's own code"
# (tests/pytorch/lm_fixture.py, a module:factory).
IMAGE = [3, 64, 64]
MODELS = [(m, IMAGE, 0) for m in ["resnet18", "resnet50", "vgg11", "mobilenet_v2", "densenet121", "squeezenet1_0",
                                  "alexnet", "efficientnet_b0", "shufflenet_v2_x0_5", "googlenet"]]
MODELS.append(("lm_fixture:tiny_lm", [32], 2000))
CAPS_MB = [25, 1]
BATCH = 2

try:
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
    import torchvision  # noqa: F401
except ImportError as e:
    print(f"SKIP: python3-torch / python3-torchvision cannot be imported ({e}); scripts/setup.sh installs them")
    sys.exit(77)


def exporter(repo):
    spec = importlib.util.spec_from_file_location("export_model", os.path.join(repo, "scripts", "export_model.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def worker(rank, repo, init_file, out_file):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="file://" + init_file, rank=rank, world_size=2)
    em = exporter(repo)
    from torch.nn.parallel import DistributedDataParallel as DDP
    real = {}
    for name, shape, high in MODELS:
        for cap in CAPS_MB:
            torch.manual_seed(0)
            model, _ = em.build(name)
            model.train()
            ddp = DDP(model, bucket_cap_mb=cap)
            for _ in range(2):  # the rebuild happens in the second iteration's forward
                x = torch.randint(0, high, [BATCH] + shape) if high else torch.randn([BATCH] + shape)
                em.loss_of(ddp(x)).backward()
            buckets = ddp.reducer._get_zeros_like_grad_buckets()
            real[f"{name}/{cap}"] = [b.buffer().numel() * b.buffer().element_size() for b in buckets]
            del ddp, model
    if rank == 0:
        with open(out_file, "w") as f:
            json.dump(real, f)
    dist.destroy_process_group()


def main():
    ddpsim, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    em = exporter(repo)
    work = tempfile.mkdtemp(prefix="ddp_buckets.")
    scenarios = []
    os.chdir(os.path.dirname(os.path.abspath(__file__)))  # module:factory models are imported from here
    for name, shape, high in MODELS:
        file = name.replace(":", "_")
        sys.argv = ["export_model.py", name, "--input", ",".join(map(str, shape)), "--batch", str(BATCH),
                    "--int-input", str(high), "-o", os.path.join(work, file + ".yaml")]
        em.main()
        for cap in CAPS_MB:
            path = os.path.join(work, f"{file}_{cap}.yaml")
            with open(path, "w") as f:
                f.write(f"name: {name}/{cap}\ncluster: {{instance: p4d.24xlarge, nodes: 1, gpus_per_node: 2}}\n"
                        f"model: {{file: {file}.yaml}}\n"
                        f"training: {{framework: pytorch-ddp, batch_per_gpu: {BATCH}, bucket_cap_mb: {cap}, "
                        f"first_bucket_mb: 1, steps: 1}}\n")
            scenarios.append(path)
    out = subprocess.run([ddpsim, "scenario", *scenarios, "--format", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr)
        sys.exit(1)
    reports = json.loads(out.stdout)
    reports = reports if isinstance(reports, list) else [reports]
    sim = {r["scenario"]: r["results"][0]["bucket_bytes"] for r in reports}
    real_file = os.path.join(work, "real.json")
    mp.spawn(worker, args=(repo, os.path.join(work, "init"), real_file), nprocs=2)
    with open(real_file) as f:
        real = json.load(f)
    failed = 0
    print(f"torch {torch.__version__}, world size 2 (gloo), first bucket 1 MiB")
    print(f"{'model':20} {'cap':>6} {'buckets':>8} {'bytes':>12}  result")
    for key in real:
        name, cap = key.rsplit("/", 1)
        ok = real[key] == sim.get(key)
        failed += not ok
        print(f"{name:20} {cap + ' MiB':>6} {len(real[key]):>8} {sum(real[key]):>12}  {'PASS' if ok else 'FAIL'}")
        if not ok:
            print(f"  real   {real[key]}\n  ddpsim {sim.get(key)}")
    print(f"{len(real) - failed}/{len(real)} equal byte for byte")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
