#!/usr/bin/env bash
# Issue 20's list of defects found by trying ddpsim as a new user would: one check each.
set -u
ddpsim=$1 root=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$root"
base='name: t
cluster: {instance: p4d.24xlarge, nodes: [1, 2]}
model: {preset: resnet50}
training: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 100000}'

# 1. broadcast on p3dn: the shipped profile's forced ring does not implement it; NCCL's choice runs.
#    A 1 GiB broadcast (S over every edge, pipelined, cut over NCCL's channels like the all-reduce)
#    costs at most an all-reduce's time (2(P-1)/P x S per edge for a ring, S each way for a tree);
#    it was 4-4.5x on p4d/p5 when the broadcast ran on one channel.
"$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --op broadcast -b 1G -e 1G --format json >"$tmp/b.json" 2>"$tmp/b.err" &&
  say ok "collective --op broadcast on p3dn runs" || say fail "broadcast on p3dn: $(cat "$tmp/b.err")"
for inst in p3dn.24xlarge p4d.24xlarge p5.48xlarge; do
  "$ddpsim" collective --instance $inst --nodes 2 --op broadcast -b 1G -e 1G --format json >"$tmp/b.json"
  "$ddpsim" collective --instance $inst --nodes 2 -b 1G -e 1G --format json >"$tmp/a.json"
  python3 - "$tmp/b.json" "$tmp/a.json" <<'PY' && say ok "$inst: 1 GiB broadcast <= 1 GiB all-reduce, by an algorithm that implements broadcast" || say fail "$inst: broadcast price"
import json, sys
b, a = (json.load(open(f))["rows"][0] for f in sys.argv[1:3])
assert b["algorithm"] in ("ring-broadcast", "direct"), b
ratio = b["time_us"] / a["time_us"]
print("     broadcast %.0f us (%s), all-reduce %.0f us (%s): %.2fx" % (b["time_us"], b["algorithm"], a["time_us"], a["algorithm"], ratio))
assert 0.3 < ratio <= 1.05, ratio
PY
done

# nccl-tests' redop and root columns per collective: broadcast "none" root 0, all_gather "none" -1.
for want in "broadcast none 0" "all_gather none -1" "reduce_scatter sum -1" "all_reduce sum -1"; do
  set -- $want
  got=$("$ddpsim" collective --instance p4d.24xlarge --nodes 2 --op "$1" -b 1M -e 1M | awk '!/^#/ { print $4, $5 }')
  [ "$got" = "$2 $3" ] && say ok "collective --op $1: redop/root '$got' as nccl-tests prints" || say fail "$1 redop/root: '$got'"
done

# 2. observed step_time and samples_per_s rows appear, with their errors.
cat >"$tmp/obs.yaml" <<EOF
$base
observed:
  source: test
  rows:
    - {nodes: 1, step_time: 100ms}
    - {nodes: 2, samples_per_s: 5000}
EOF
"$ddpsim" scenario "$tmp/obs.yaml" >"$tmp/obs.txt" 2>&1
grep -q "obs.step \[ms\]" "$tmp/obs.txt" && grep -q "step err" "$tmp/obs.txt" && grep -q "obs.samples/s" "$tmp/obs.txt" &&
  awk '$1 == 1' "$tmp/obs.txt" | grep -q " 100.00 " && awk '$1 == 2' "$tmp/obs.txt" | grep -q " 5000 " &&
  say ok "observed step_time and samples_per_s shown with errors" || say fail "observed step/throughput rows: $(cat "$tmp/obs.txt" | head -8)"
"$ddpsim" scenario "$tmp/obs.yaml" --format json | python3 -c '
import json, sys
r = json.load(sys.stdin)["results"]
assert abs(r[0]["observed_step_time_s"] - 0.1) < 1e-12 and r[1]["observed_samples_per_s"] == 5000' &&
  say ok "JSON: observed_step_time_s, observed_samples_per_s" || say fail "JSON lacks the observed step/throughput"

# 3. plan with an ml.* instance that has no SageMaker rate and no pricing: says so, not memory.
sed 's/instance: \[p4d.24xlarge, p4de.24xlarge, p5.48xlarge\]/instance: ml.p4de.24xlarge/' scenarios/plans/gpt2xl.yaml >"$tmp/plan.yaml"
"$ddpsim" plan "$tmp/plan.yaml" >"$tmp/plan.txt" 2>&1
grep -q "^recommended: none: every configuration is excluded (.*no price" "$tmp/plan.txt" &&
  ! grep -q "^recommended: none: no configuration fits in memory" "$tmp/plan.txt" &&
  say ok "plan without a SageMaker rate: $(grep '^recommended' "$tmp/plan.txt")" || say fail "plan ml.*: $(grep '^recommended' "$tmp/plan.txt")"
sed 's/instance: \[p4d.24xlarge, p4de.24xlarge, p5.48xlarge\]/instance: ml.p4d.24xlarge/' scenarios/plans/gpt2xl.yaml >"$tmp/plan2.yaml"
"$ddpsim" plan "$tmp/plan2.yaml" | grep -q "^recommended: ml.p4d.24xlarge" && say ok "ml.p4d.24xlarge is priced (SageMaker's rate): recommended" ||
  say fail "ml.p4d.24xlarge plan"

# 4. failures what-if: restart and requeue have no silent default; the footnote gives the reason for "-".
printf '%s\nresilience: {requeue: 5min, checkpoint: {storage: fsx}}\n' "$base" >"$tmp/r1.yaml"
check "resilience.restart missing" 2 "$tmp/r1.yaml:5:" "$ddpsim" scenario "$tmp/r1.yaml"
check "resilience.restart missing (field)" 2 "resilience.restart: missing" "$ddpsim" scenario "$tmp/r1.yaml"
printf '%s\nresilience: {restart: 10min, checkpoint: {storage: fsx}}\n' "$base" >"$tmp/r2.yaml"
check "resilience.requeue missing" 2 "resilience.requeue: missing" "$ddpsim" scenario "$tmp/r2.yaml"
printf '%s\nresilience: {restart: 10min, requeue: 0s, checkpoint: {storage: fsx}}\n' "$base" >"$tmp/r3.yaml"
"$ddpsim" scenario "$tmp/r3.yaml" | grep -q "no Monte Carlo asked" && say ok "footnote: '-' under p10/p50/p90 = no Monte Carlo asked" ||
  say fail "footnote for the dashes"
"$ddpsim" scenario "$tmp/r3.yaml" | grep -q "does not fit in memory" && say fail "footnote blames memory with every row fitting" ||
  say ok "footnote does not blame memory when everything fits"

# 5. --trace honours stragglers: the trace lasts the straggler steps the table reports.
"$ddpsim" scenario scenarios/resnet50_stragglers.yaml --trace "$tmp/trace.json" --trace-config 4 --format json >"$tmp/s.json"
python3 - "$tmp/trace.json" "$tmp/s.json" <<'PY' && say ok "--trace with stragglers: the simulated steps are in the trace" || say fail "--trace ignores stragglers"
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"] if isinstance(t, dict) else t
steps = [e for e in ev if e.get("ph") == "X" and e["name"].startswith("step ")]
r = next(r for r in json.load(open(sys.argv[2]))["results"] if r["nodes"] == 4)
x = r["stragglers"]
assert len(steps) == x["steps_simulated"], (len(steps), x["steps_simulated"])
mean_us = sum(e["dur"] for e in steps) / len(steps)
assert abs(mean_us - x["step_mean_s"] * 1e6) <= 1e-3 * x["step_mean_s"] * 1e6 + 1, (mean_us, x["step_mean_s"])
PY

# 6. plan HTML: pytorch-ddp and fsdp get different markers; no duplicate point on the frontier;
#    the scenario page's table keeps the error columns.
"$ddpsim" plan scenarios/plans/gpt2xl.yaml --format json >"$tmp/plan.json"
python3 - "$tmp/plan.json" <<'PY' && say ok "frontier: no two rows with the same time and cost" || say fail "frontier duplicates"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r.get("pareto")]
pts = [(r["total_time_s"], r["cost_usd"]) for r in rows]
assert len(pts) == len(set(pts)), pts
PY
"$ddpsim" plan scenarios/plans/gpt2xl.yaml --format html -o "$tmp/plan.html"
python3 - "$tmp/plan.html" <<'PY' && say ok "plan page: each framework its own marker shape" || say fail "frameworks share a marker"
import re, sys
html = open(sys.argv[1]).read()
# the legend: a marker element right before each framework's name
shapes = {}
for m in re.finditer(r'<(circle|polygon)([^>]*)>(?:<title>[^<]*</title></\1>)?\s*<text[^>]*>(pytorch-ddp|zero-2|fsdp)</text>', html):
    pts = re.search(r'points="([^"]*)"', m.group(2))
    shapes[m.group(3)] = m.group(1) + (str(len(pts.group(1).split())) if pts else "")
assert len(shapes) == 3 and len(set(shapes.values())) == 3, shapes
PY
"$ddpsim" scenario scenarios/p3_8node_fitted.yaml --format html -o "$tmp/s.html"
grep -q "<th>error</th>" "$tmp/s.html" && grep -q "held back" "$tmp/s.html" && say ok "HTML table keeps the error and fit columns" ||
  say fail "HTML table lacks error columns"

# 7. errors located at file:line with the right field.
printf 'name: t\ncluster: {instance: p4d.24xlarge, nodes: [2]}\nmodel: {preset: resnet50}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}\ncommunication: {algorithm: nvls}\n' >"$tmp/nvls.yaml"
check "nvls on p4d" 2 "$tmp/nvls.yaml:5:" "$ddpsim" scenario "$tmp/nvls.yaml"
check "nvls on p4d (field)" 2 "communication.algorithm" "$ddpsim" scenario "$tmp/nvls.yaml"
sed 's/algorithm: nvls/algorithm: sharp/' "$tmp/nvls.yaml" >"$tmp/sharp.yaml"
check "sharp on p4d" 2 "$tmp/sharp.yaml:5:" "$ddpsim" scenario "$tmp/sharp.yaml"
sed 's/algorithm: nvls/algorithm: hierarchical/; s/framework: pytorch-ddp/framework: zero-2/' "$tmp/nvls.yaml" >"$tmp/hier.yaml"
check "hierarchical with zero-2" 2 "$tmp/hier.yaml:5:" "$ddpsim" scenario "$tmp/hier.yaml"
printf 'name: t\ncluster: {instance: p4d.24xlarge, nodes: [2]}\nmodel:\n  preset: bert-large\n  seq_len: 513\ntraining: {framework: pytorch-ddp, batch_per_gpu: 32, samples: 1000}\n' >"$tmp/seq.yaml"
check "seq_len 513 blamed on model.seq_len" 2 "$tmp/seq.yaml:5:" "$ddpsim" scenario "$tmp/seq.yaml"
check "seq_len 513 (field)" 2 "model.seq_len" "$ddpsim" scenario "$tmp/seq.yaml"
printf '%s\nresilience: {node_mtbf: 1s, restart: 10min, requeue: 0s, checkpoint: {storage: fsx}}\n' "$base" >"$tmp/never.yaml"
check "would never finish: located" 2 "$tmp/never.yaml:5:" "$ddpsim" scenario "$tmp/never.yaml"
check "would never finish: message" 2 "never finish" "$ddpsim" scenario "$tmp/never.yaml"

# 7b. plan errors at the file's own line (the plan's variants were clones without marks: ":1:1").
plan='name: p
cluster:
  instance: [p4d.24xlarge, p5.48xlarge]
  nodes: {from: 1, to: 4, by: x2}
model: {preset: gpt2-xl, seq_len: 1024}
training:
  framework: [pytorch-ddp, fsdp]
  batch_per_gpu: 4
  samples: 100000'
printf '%s\n' "$plan" | sed 's/fsdp\]/deepspeed-zero3]/' >"$tmp/p1.yaml"
check "plan: unknown framework in a list, at its element" 2 "$tmp/p1.yaml:7:28: error: training.framework" "$ddpsim" plan "$tmp/p1.yaml"
printf '%s\n' "$plan" | sed 's/p5.48xlarge/p5x.48xlarge/' >"$tmp/p2.yaml"
check "plan: unknown instance in a list, at its element" 2 "$tmp/p2.yaml:3:28: error: cluster.instance" "$ddpsim" plan "$tmp/p2.yaml"
printf '%s\n' "$plan" | sed 's/batch_per_gpu: 4/batch_per_gpu: 0/' >"$tmp/p3.yaml"
check "plan: batch_per_gpu 0 at its line" 2 "$tmp/p3.yaml:8:18: error: training.batch_per_gpu" "$ddpsim" plan "$tmp/p3.yaml"
printf '%s\n' "$plan" | sed 's/seq_len: 1024/seq_len: 4096/' >"$tmp/p4.yaml"
check "plan: seq_len past GPT-2's at its line" 2 "$tmp/p4.yaml:5:" "$ddpsim" plan "$tmp/p4.yaml"
printf '%s\n' "$plan" | sed 's/{from: 1, to: 4, by: x2}/{from: 1.5, to: 4}/' >"$tmp/p5.yaml"
"$ddpsim" plan "$tmp/p5.yaml" >/dev/null 2>"$tmp/p5.err"
[ $? = 2 ] && grep -q "^$tmp/p5.yaml:4:10: error: cluster.nodes: expected a whole number" "$tmp/p5.err" &&
  say ok "plan: a node range's generated count is placed at the range" || say fail "plan node range: $(cat "$tmp/p5.err")"

# 8. suggestions.
sed 's/framework: pytorch-ddp/framework: ddp/' "$tmp/nvls.yaml" | sed '/communication/d' >"$tmp/ddp.yaml"
check "ddp suggests pytorch-ddp" 2 'did you mean "pytorch-ddp"' "$ddpsim" scenario "$tmp/ddp.yaml"
check "--instance p4d suggests p4d.24xlarge" 2 '"p4d.24xlarge"' "$ddpsim" collective --instance p4d --nodes 2
check "--formt suggests --format" 2 "did you mean --format" "$ddpsim" scenario scenarios/p3_8node.yaml --formt json
sed 's/nodes: \[2\]/nodes: {from: 1, to: 8, by: x2}/' "$tmp/ddp.yaml" | sed 's/framework: ddp/framework: pytorch-ddp/' >"$tmp/range.yaml"
check "node range points to plan" 2 "ddpsim plan" "$ddpsim" scenario "$tmp/range.yaml"
sed 's/instance: p4d.24xlarge/instance: [p4d.24xlarge, p5.48xlarge]/' "$tmp/nvls.yaml" | sed '/communication/d' >"$tmp/list.yaml"
check "instance list points to plan" 2 "ddpsim plan" "$ddpsim" scenario "$tmp/list.yaml"

# 9. docs: batch_per_gpu required everywhere; the cited paths exist; calibrate run's flag.
grep -q '| `training.batch_per_gpu` | .* | required |' docs/scenario.md && grep -q '"required": \["batch_per_gpu"\]' docs/scenario.schema.json &&
  say ok "batch_per_gpu: required in docs and schema, as the loader says" || say fail "batch_per_gpu docs"
missing=$(grep -o '`[a-z_]*/[a-z_/]*\.[a-z]*`' docs/algorithms.md | tr -d '`' | while read -r p; do [ -e "$p" ] || echo "$p"; done)
[ -z "$missing" ] && say ok "docs/algorithms.md: every cited path exists" || say fail "docs/algorithms.md cites missing $missing"
grep -E '(latency|overhead|launch|negotiation|cycle_time)` .*\(`300ms`' docs/scenario.md && say fail "latency keys with 300ms/5min examples" ||
  say ok "latency keys have microsecond examples"
"$ddpsim" calibrate run --help | grep -q -- "--gpus-per-node" && say ok "calibrate run --gpus-per-node, as elsewhere" ||
  say fail "calibrate run lacks --gpus-per-node"
exit $fail
