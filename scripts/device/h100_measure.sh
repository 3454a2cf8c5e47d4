#!/usr/bin/env bash
# Measurements on a lent GPU machine (one H100; no Debian packages there, nothing fetched):
#   1. `ddpsim calibrate run`, the NCCL runner, on every visible GPU;
#   2. the interference of a communication kernel with training compute (interference.py).
# The ddpsim binary and the libraries it links (all but libc and NCCL) travel as
# .devcarry/dd.tar.xz, built on the Debian machine:
#   ldd build/release/app/ddpsim | awk '/=>/{print $3}' | grep -v -E 'libc.so|libm.so|libdl|libpthread|librt|ld-linux|libnccl'
# NCCL is the machine's own (the nvidia-nccl-cu13 wheel beside its PyTorch); its version is in the log.
# Everything lands in $OUT (or ./device-out).
set -uo pipefail
out=${OUT:-device-out}
mkdir -p "$out" /tmp/dd
tar xJf .devcarry/dd.tar.xz -C /tmp/dd
nccl_dir=$(dirname "$(find / -name 'libnccl.so.2' -path '*nvidia/nccl*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=/tmp/dd/lib:$nccl_dir
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv
  nvidia-smi | sed -n 1,4p
  echo "nccl library: $nccl_dir"
  python3 -c 'import torch, cupy; print("torch", torch.__version__, "cuda", torch.version.cuda, "cupy", cupy.__version__)'
  lscpu | grep -E 'Model name|^CPU\(s\)'
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

/tmp/dd/ddpsim calibrate run --instance p5.48xlarge --output "$out/h100_run.yaml" \
  --log "$out/h100_allreduce.nccl-tests.txt" -b 8 -e 1G --iters 50 --warmup 10 2>&1 | tee "$out/calibrate_run.txt"
echo "calibrate run exit: ${PIPESTATUS[0]}" | tee -a "$out/calibrate_run.txt"
cat "$out/h100_allreduce.nccl-tests.txt" 2>/dev/null
# More GPUs than are visible: refused before anything is measured.
/tmp/dd/ddpsim calibrate run --instance p5.48xlarge --output "$out/none.yaml" --gpus-per-node 8 2>&1 | tee -a "$out/calibrate_run.txt"
echo "calibrate run --gpus-per-node 8 exit: ${PIPESTATUS[0]}" | tee -a "$out/calibrate_run.txt"

PYTHONUNBUFFERED=1 python3 scripts/device/interference.py 3350e9 ${INTERFERENCE_WORKLOADS:-} >"$out/interference.json" 2>"$out/interference.log"
echo "interference exit: $?"
cat "$out/interference.log"
