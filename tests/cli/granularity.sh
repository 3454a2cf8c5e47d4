#!/usr/bin/env bash
# Issue 21: `ddpsim scenario --granularity step` and `--per-rank` through the real binary. Each flag
# changes what runs (the JSON says so, and the step-level times differ from the coarse ones where
# NCCL's latency formula applies), results stay finite, and bad uses exit 2 with one line.
#   granularity.sh DDPSIM SCENARIOS_DIR
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 scenarios=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/small.yaml" <<'YAML'
name: small
cluster:
  instance: p4d.24xlarge
  nodes: [1, 2]
model:
  preset: resnet50
training:
  framework: pytorch-ddp
  compare: [gloo, zero-2]
  batch_per_gpu: 32
  steps: 10
YAML
run() { "$ddpsim" scenario "$tmp/small.yaml" --samples 0 --format json "$@"; }
run >"$tmp/coarse.json" && run --granularity step >"$tmp/step.json" && run --per-rank >"$tmp/rank.json" &&
  run --engine flow >"$tmp/flow.json" && run --engine flow --per-rank >"$tmp/flowrank.json" &&
  run --engine flow --granularity step >"$tmp/flowstep.json" && say ok "every run exits 0" || say fail "a run failed"
python3 - "$tmp" <<'PY' && say ok "JSON: granularity, per-rank, finite, step differs from coarse" || fail=1
import json, math, sys
d = sys.argv[1]
j = {n: json.load(open(f"{d}/{n}.json")) for n in ("coarse", "step", "rank", "flow", "flowrank", "flowstep")}
bad = []
def finite(x, path):
    if isinstance(x, float) and not math.isfinite(x): bad.append(path)
    if isinstance(x, dict): [finite(v, f"{path}.{k}") for k, v in x.items()]
    if isinstance(x, list): [finite(v, f"{path}[{i}]") for i, v in enumerate(x)]
for n, r in j.items():
    finite(r, n)
    assert all(x["step_time_s"] > 0 for x in r["results"]), n
assert not bad, bad
# The report says which granularity ran (the key is only written for step).
assert "granularity" not in j["coarse"] and j["step"]["granularity"] == "step" and j["flowstep"]["granularity"] == "step"
rows = lambda n: {(x["framework"], x["nodes"]): x for x in j[n]["results"]}
c, s, r = rows("coarse"), rows("step"), rows("rank")
# Step granularity changes the NCCL rows' reductions (no latency formula or profile: every send
# pays its route latency) ...
changed = [k for k in c if k[0] != "gloo" and abs(s[k]["comm_s"] / c[k]["comm_s"] - 1) > 1e-3]
assert changed, "step granularity changed no NCCL row"
# ... while Gloo's plain ring takes the same time as its coarse phases (links nobody else uses).
for k in c:
    if k[0] == "gloo":
        assert math.isclose(s[k]["comm_s"], c[k]["comm_s"], rel_tol=1e-6), (k, s[k]["comm_s"], c[k]["comm_s"])
# Per rank: every row says every rank was simulated; with healthy ranks it is the folded result.
assert all(x.get("simulated") == "per-rank" for x in j["rank"]["results"])
assert all("simulated" not in x for x in j["coarse"]["results"])
for k in c:
    assert math.isclose(r[k]["step_time_s"], c[k]["step_time_s"], rel_tol=1e-9), k
# On the flow engine the 2-node rows fold to a symmetry period unless --per-rank.
f, fr = rows("flow"), rows("flowrank")
assert all(f[k]["simulated"] == "symmetric" for k in f if k[1] == 2), f
assert all(x["simulated"] == "per-rank" for x in fr.values())
print("changed by step:", changed)
PY
"$ddpsim" scenario "$tmp/small.yaml" --samples 0 --granularity step --per-rank >"$tmp/table" &&
  grep -q "^granularity step: each gradient reduction" "$tmp/table" && grep -q "^--per-rank: every rank simulated" "$tmp/table" &&
  ! grep -q "the flow engine simulated" "$tmp/table" && say ok "the table's notes say step and per-rank" ||
  say fail "the table does not say step and per-rank: $(tail -5 "$tmp/table")"
"$ddpsim" scenario --help >"$tmp/help" && grep -q -- "--granularity" "$tmp/help" && grep -q -- "--per-rank" "$tmp/help" &&
  say ok "--help lists --granularity and --per-rank" || say fail "--help lacks the flags"
check "bad granularity" 2 "--granularity: fine not in {coarse,step}" "$ddpsim" scenario "$tmp/small.yaml" --granularity fine
sed 's/nodes: \[1, 2\]/nodes: [1, 256]/' "$tmp/small.yaml" >"$tmp/big.yaml"
check "step past 1024 GPUs" 2 "at most 1024 GPUs on the analytical engine" "$ddpsim" scenario "$tmp/big.yaml" --granularity step
sed 's/nodes: \[1, 2\]/nodes: [1, 64]/' "$tmp/small.yaml" >"$tmp/mid.yaml"
check "flow step past 256 GPUs" 2 "at most 256 GPUs on the flow engine" "$ddpsim" scenario "$tmp/mid.yaml" --granularity step --engine flow
check "several jobs, per rank" 2 "--per-rank: not available for a scenario with several jobs" \
  "$ddpsim" scenario "$scenarios/shared_fabric/bert_resnet_shared_spine.yaml" --per-rank
exit $fail
