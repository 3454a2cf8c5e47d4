#!/usr/bin/env bash
# Issue 19: a scenario's model.trace that is missing, not JSON, cut short, or not a training step
# is one located error line and exit 2, never a crash.
# usage: bad_trace.sh DDPSIM SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
ddpsim=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scenario() {  # scenario NAME TRACE [EXTRA MODEL LINE]
  cat >"$tmp/$1.yaml" <<YAML
name: $1
cluster: {instance: p4d.24xlarge, nodes: [1]}
model:
  trace: $2
  ${3:-}
training: {framework: pytorch-ddp, batch_per_gpu: 8, steps: 10}
YAML
  echo "$tmp/$1.yaml"
}
good=$src/tests/data/traces/a100_2rank_resnet50_ddp_nccl2.17.1_kineto.json.gz
cp "$good" "$tmp/good.json.gz"
head -c 4000 "$good" >"$tmp/cut.json.gz"
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": "soon", "dur": 1}]}' >"$tmp/badts.json"
printf 'not json' >"$tmp/junk.json"
cp "$src/tests/data/traces/alexnet_1gpu_kineto.json.gz" "$tmp/alexnet.json.gz"
check "missing trace" 2 "model.trace: no such file" "$ddpsim" scenario "$(scenario missing nothere.json)"
check "truncated gzip" 2 "cut.json.gz: error: truncated gzip file" "$ddpsim" scenario "$(scenario cut cut.json.gz)"
check "not JSON" 2 "junk.json: error: not a JSON trace: parse error at byte" "$ddpsim" scenario "$(scenario junk junk.json)"
check "bad field" 2 "badts.json: error: traceEvents[0].ts: expected a number" "$ddpsim" scenario "$(scenario badts badts.json)"
check "forward only" 2 "not a training step" "$ddpsim" scenario "$(scenario alexnet alexnet.json.gz)"
check "trace and preset" 2 "model.preset: give either model.trace or model.preset" \
  "$ddpsim" scenario "$(scenario both good.json.gz 'preset: resnet50')"
check "unknown trace_gpu" 2 "model.trace_gpu: unknown GPU" "$ddpsim" scenario "$(scenario gpu good.json.gz 'trace_gpu: A99')"
exit $fail
