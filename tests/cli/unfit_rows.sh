#!/usr/bin/env bash
# A configuration that does not fit in GPU memory cannot run, so no report may give it a time or a
# cost: not the main table, and not the what-if tables under it (failures and checkpoints), in
# any format.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { timeout 120 "$ddpsim" "$@"; }

# GPT-2 XL, Adam, batch 2 per GPU on 40 GiB A100s: needs ~44 GiB (memory model, docs/model.md).
cat >"$tmp/unfit.yaml" <<'YAML'
name: unfit
cluster: {instance: p4d.24xlarge, nodes: [16]}
model: {preset: gpt2-xl, seq_len: 1024}
training: {framework: pytorch-ddp, batch_per_gpu: 2, precision: bf16, samples: 1000000, optimizer: adam}
resilience: {restart: 10min, requeue: 5min, checkpoint: {every: auto, storage: fsx}, monte_carlo: {trials: 50, seed: 1}}
YAML
run scenario "$tmp/unfit.yaml" --samples 0 >"$tmp/out.txt" 2>"$tmp/err.txt"
grep -q 'does not fit' "$tmp/err.txt" "$tmp/out.txt" && say ok "the row is reported as not fitting" || say fail "no 'does not fit'"
# The row under the failures table's head: expected, exp.cost and Monte Carlo (its last 3 cells) are "-".
row=$(awk '/^failures and checkpoints/ {f=1} f && /^ *[0-9]/ {print; exit}' "$tmp/out.txt")
if [ -n "$row" ] && awk '{ exit !($(NF-2) == "-" && $(NF-1) == "-" && $NF == "-") }' <<<"$row"; then say ok "text: failures row has no time or cost: $row"
else say fail "text: failures row costs an unfit configuration: $row"; fi

run scenario "$tmp/unfit.yaml" --samples 0 --format json 2>/dev/null >"$tmp/out.json"
python3 - "$tmp/out.json" <<'PY' && say ok "json: expected time, cost and Monte Carlo are null/absent" || say fail "json: unfit row has resilience time or cost"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
x = r["resilience"]
assert r["fits"] is False and r["total_time_s"] is None
assert x["expected_total_time_s"] is None and x["expected_cost_usd"] is None and "monte_carlo" not in x
PY

run scenario "$tmp/unfit.yaml" --samples 0 --format csv 2>/dev/null >"$tmp/out.csv"
python3 - "$tmp/out.csv" <<'PY' && say ok "csv: expected time, cost and p50 empty" || say fail "csv: unfit row has resilience time or cost"
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
assert r["fits"] == "false"
assert r["expected_total_time_s"] == "" and r["expected_cost_usd"] == "" and r["mc_p50_s"] == ""
assert r["job_mtbf_s"] != ""
PY
exit $fail
