#!/usr/bin/env bash
# `ddpsim calibrate run`: with GPUs it writes a profile and the raw log; without (or in a build
# without CUDA/NCCL) it exits 2 with one line and writes nothing.
set -u
ddpsim=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
err=$("$ddpsim" calibrate run --instance p4d.24xlarge --out "$tmp/p.yaml" -e 1M --iters 2 --warmup 1 2>&1 >/dev/null); rc=$?
if [ $rc = 0 ]; then
  [ -s "$tmp/p.yaml" ] && [ -s "$tmp/p.yaml.nccl-tests.txt" ] || { echo "FAIL: rc 0 but no profile/log"; exit 1; }
  echo "ok: measured on this machine's GPUs"; exit 0
fi
lines=$(printf '%s\n' "$err" | grep -c .)
if [ $rc != 2 ] || [ "$lines" != 1 ] || [ -n "$(ls -A "$tmp")" ]; then
  echo "FAIL: rc=$rc lines=$lines files=$(ls -A "$tmp"): $err"; exit 1
fi
echo "ok: no GPU here, refused cleanly: $err"
