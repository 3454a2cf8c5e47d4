#!/usr/bin/env bash
# Issue 11's progress line, seen as a person sees it: on a terminal (a pty from util-linux's
# `script`) a plan that runs for more than a second draws "ddpsim: N/M variants (P%), ..." on
# stderr and erases it at the end; the report written with --output is byte-identical to a run
# without a terminal, and without a terminal nothing is drawn.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1
command -v script >/dev/null || { echo "SKIP: util-linux script not installed"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# 3 instances x 8 frameworks x 5 batch sizes = 120 variants (x 7 node counts): a few seconds here.
cat >"$tmp/plan.yaml" <<'YAML'
name: progress
cluster: {instance: [p4d.24xlarge, p4de.24xlarge, p5.48xlarge], nodes: {from: 1, to: 64, by: x2}}
model: {preset: bert-large, seq_len: 128}
training:
  framework: [pytorch-ddp, lightning, horovod, smddp, zero-1, zero-2, zero-3, fsdp]
  batch_per_gpu: [8, 16, 32, 64, 128]
  precision: fp16
  optimizer: adam
  samples: 100000000
goal: {deadline: 24h, minimize: cost}
YAML
timeout 300 script -qefc "'$ddpsim' plan '$tmp/plan.yaml' --format json --output '$tmp/tty.json'" "$tmp/typescript" >/dev/null
rc=$?
[ $rc = 0 ] && say ok "plan on a pty exits 0" || say fail "plan on a pty: rc=$rc"
if grep -aqE 'ddpsim: [0-9]+/[0-9]+ variants \([0-9]+%\), [0-9]+ s, about [0-9]+ s left' "$tmp/typescript"; then
  say ok "the progress line is drawn on the terminal"
else
  say fail "no progress line on the terminal: $(tr '\r\033' '|^' <"$tmp/typescript" | head -c 300)"
fi
# After the last progress line comes the erase (\r ESC [K), before script's own trailer.
python3 - "$tmp/typescript" <<'PY' && say ok "the line is erased at the end" || say fail "the line is not erased at the end"
import sys
t = open(sys.argv[1], "rb").read()
last = t.rfind(b"left\x1b[K")
assert last >= 0 and t.find(b"\r\x1b[K", last + 6) >= 0
PY
start=$(date +%s%N)
timeout 300 "$ddpsim" plan "$tmp/plan.yaml" --format json --output "$tmp/plain.json" 2>"$tmp/err.txt"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
# The line appears only after a second; on a machine fast enough to finish sooner there is none.
if [ "$ms" -lt 1500 ] && [ "$fail" = 1 ]; then echo "SKIP: the plan took only $ms ms (the line appears after 1 s)"; exit 0; fi
cmp -s "$tmp/tty.json" "$tmp/plain.json" && say ok "the report is byte-identical with and without a terminal" ||
  say fail "the report differs with a terminal"
[ ! -s "$tmp/err.txt" ] && say ok "no progress line without a terminal" || say fail "stderr without a terminal: $(head -c 200 "$tmp/err.txt")"
exit $fail
