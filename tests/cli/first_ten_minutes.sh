#!/usr/bin/env bash
# Issue 20, "the first ten minutes": README's first command (the calibrated reference case) and
# the default table: at most 120 characters wide; calibrated beside uncalibrated with held-back
# rows marked and their error shown; no zero-width interval; one time unit per column; SageMaker's
# own rate for ml.* instances with its source; --wide for the rest; JSON and CSV keep every field;
# --samples sampling only when an uncertain input can move a result.
set -u
ddpsim=$(realpath "$1") root=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$root"

# The command README shows first, verbatim.
first=$(sed -n 's/^    \.\/scripts\/setup.sh && \.\/build\/release\/app\/ddpsim \(scenario .*\)$/\1/p' README.md | head -1)
[ "$first" = "scenario scenarios/p3_8node_fitted.yaml" ] && say ok "README's first command: ddpsim $first" ||
  say fail "README's first command is '$first'"
"$ddpsim" $first >"$tmp/ref.txt" || say fail "the reference command failed"
width=$(awk '{ if (length($0) > w) w = length($0) } END { print w }' "$tmp/ref.txt")
[ "$width" -le 120 ] && say ok "reference output is $width characters wide (<= 120)" || say fail "reference output is $width wide"
head="$(grep -m1 '^nodes' "$tmp/ref.txt")"
for col in "total [min]" "uncal. [min]" "obs. [min]" "error" "uncal.error" "fit"; do
  [[ "$head" == *"$col"* ]] && say ok "column '$col'" || say fail "no column '$col' in: $head"
done
row() { awk -v n="$1" '$1 == n' "$tmp/ref.txt"; }
[[ "$(row 1)" == *fitted* && "$(row 2)" == *fitted* ]] && say ok "1 and 2 nodes marked fitted" || say fail "fitted rows: $(row 1)"
for n in 4 8; do
  r=$(row $n)
  if [[ "$r" == *"held back"* ]] && grep -qE '[+-][0-9]+\.[0-9]%' <<<"$r"; then say ok "$n nodes held back, error shown: $r"
  else say fail "$n nodes: $r"; fi
done
# The observed minutes in the total's unit: 99 min, not 1.65 h.
[[ "$(row 1)" == *" 99.0 "* ]] && say ok "observed 99 min printed as 99.0 in the minutes column" || say fail "row 1: $(row 1)"

# README's sample of that output: its table rows are the binary's, byte for byte.
readme_rows=$(awk '/^    \$ \.\/build\/release\/app\/ddpsim scenario scenarios\/p3_8node_fitted.yaml/ {on = 1; next}
                   on && /^[^ ]/ {exit} on && /^ +[0-9]+  / {sub(/^    /, ""); print}' README.md)
[ -n "$readme_rows" ] && [ "$readme_rows" = "$(grep -E '^ +[0-9]+  ' "$tmp/ref.txt")" ] &&
  say ok "README's sample rows match the output" || say fail "README's sample rows differ from the output"

# README shows `expect` and the tuner export (issue 20, "done when"): its commands, run as written.
for cmd in "expect --instance p5.48xlarge --nodes 2,4,8" "expect --instance p5.48xlarge --check all_reduce_perf.log" \
           "calibrate export profiles/p5.48xlarge.yaml --nccl-tuner tuner.csv --nodes 2,4,8"; do
  grep -qF "ddpsim $cmd" README.md && say ok "README shows: ddpsim $cmd" || say fail "README lacks: ddpsim $cmd"
done
"$ddpsim" expect --instance p5.48xlarge --nodes 2,4,8 >"$tmp/expect.txt" && [ "$(grep -cE '^ +[248] +[0-9]+ +[0-9]+ ' "$tmp/expect.txt")" = 93 ] &&
  say ok "README's expect: 31 sizes x 3 node counts" || say fail "README's expect: $(head -3 "$tmp/expect.txt")"
cp tests/data/p5_2node_16gpu_allreduce_awsome.txt "$tmp/all_reduce_perf.log"
(cd "$tmp" && "$ddpsim" expect --instance p5.48xlarge --check all_reduce_perf.log >"$tmp/check.txt"); rc=$?
sizes=$(grep -cE '^([0-9]+: )? +[0-9]+ +[0-9]+ +(float|half|bfloat16) ' "$tmp/all_reduce_perf.log")
[ "$rc" -le 1 ] && [ "$(grep -cE ' (pass|slow|fast)$' "$tmp/check.txt")" = "$sizes" ] &&
  say ok "README's expect --check: a verdict for each of the log's $sizes sizes (exit $rc)" || say fail "README's --check: rc=$rc"
(cd "$tmp" && "$ddpsim" calibrate export "$root/profiles/p5.48xlarge.yaml" --nccl-tuner tuner.csv --nodes 2,4,8 2>"$tmp/export.err")
rows=$(grep -cE '^allreduce,[0-9]+,[0-9]+,[a-z_]+,(ll|ll128|simple),' "$tmp/tuner.csv")
[ "$rows" -gt 0 ] && grep -q "^ddpsim: wrote tuner.csv: $rows row(s) for " "$tmp/export.err" &&
  say ok "README's tuner export: $(cat "$tmp/export.err")" || say fail "README's tuner export: $rows rows, $(cat "$tmp/export.err")"
# One node, where the fitted model's choices are within 5 % of NCCL's own (since the NVLS pipeline
# fill, round 4 session 17, ring beats NVLS by 2-3 % at 1 and 8 MiB: rows at the default 1 %).
(cd "$tmp" && "$ddpsim" calibrate export "$root/profiles/p5.48xlarge.yaml" --nccl-tuner none.csv --nodes 1 --min-gain 0.05 2>"$tmp/none.err")
grep -q "0 row(s): NCCL's default already matches" "$tmp/none.err" && ! grep -q '^allreduce' "$tmp/none.csv" &&
  say ok "an export with nothing to override says so: $(cat "$tmp/none.err")" || say fail "empty export: $(cat "$tmp/none.err")"

# Every example, default and --wide: no zero-width interval; in every table (the main one, the
# failures, stragglers and shared-fabric ones) one unit per time column: units in the heads, numbers
# in the cells. The default output fits 120 columns.
for f in scenarios/*.yaml scenarios/shared_fabric/*.yaml; do
  for w in "" --wide; do
    "$ddpsim" scenario "$f" $w >"$tmp/t.txt" 2>/dev/null
    if grep -qE '\(([0-9.]+)-\1\)' "$tmp/t.txt"; then say fail "$(basename "$f") $w: zero-width interval $(grep -oE '\(([0-9.]+)-\1\)' "$tmp/t.txt" | head -1)"
    else say ok "$(basename "$f") $w: no zero-width interval"; fi
    # Table rows: the lines after a head line, up to a blank line or a legend line (" = ", ": ").
    rows=$(awk '/^(instance|framework|nodes|job) .*  / { on = 1; next } on && (/^$/ || / = |: /) { on = 0 } on' "$tmp/t.txt")
    [ -n "$rows" ] || say fail "$(basename "$f") $w: no table rows found"
    if grep -qE '[0-9] (ms|us|min|h|s)( |$)' <<<"$rows"; then
      say fail "$(basename "$f") $w: a unit inside a cell: $(grep -E '[0-9] (ms|us|min|h|s)( |$)' <<<"$rows" | head -1)"
    fi
  done
  width=$("$ddpsim" scenario "$f" 2>/dev/null | awk '{ if (length($0) > w) w = length($0) } END { print w }')
  [ "$width" -le 120 ] && say ok "$(basename "$f"): default output $width characters wide" || say fail "$(basename "$f"): $width wide"
done

# ml.* at SageMaker's rate, with the source printed; plain EC2 names at the EC2 rate.
"$ddpsim" scenario scenarios/p3_8node.yaml --format json >"$tmp/p3.json"
python3 - "$tmp/p3.json" <<'PY' && say ok "ml.p3.16xlarge priced at SageMaker's 28.152 USD/h, source printed" || say fail "ml.* price"
import json, sys
j = json.load(open(sys.argv[1]))
assert all(r["price_usd_per_hour"] == 28.152 for r in j["results"]), [r["price_usd_per_hour"] for r in j["results"]]
assert "SageMaker" in j["price_source"], j["price_source"]
PY
"$ddpsim" scenario scenarios/p3_8node.yaml | grep -q '^prices: SageMaker AI on-demand training' && say ok "table prints the SageMaker source" ||
  say fail "table does not print the SageMaker source"
sed 's/instance: ml.p3.16xlarge/instance: p3.16xlarge/' scenarios/p3_8node.yaml >"$tmp/ec2.yaml"
"$ddpsim" scenario "$tmp/ec2.yaml" --format json | grep -q '"price_usd_per_hour": 24.48' && say ok "p3.16xlarge keeps EC2's 24.48" ||
  say fail "EC2 price changed"
"$ddpsim" scenario scenarios/bert_large_p3dn.yaml | grep -q 'no SageMaker rate for ml.p3dn.24xlarge' &&
  say ok "ml.p3dn.24xlarge (no SageMaker rate in the catalog) says so" || say fail "ml.p3dn price source"

# --wide adds the rest; JSON and CSV keep every field.
"$ddpsim" scenario scenarios/p3_8node.yaml --wide >"$tmp/wide.txt"
for col in "samples/s" "compute" "exposed" "loader" "memory/GPU" "eff"; do
  grep -q "$col" "$tmp/wide.txt" && ! grep -m1 '^nodes' "$tmp/ref.txt" | grep -q "$col" && say ok "'$col' under --wide only" ||
    say fail "'$col' not under --wide only"
done
# The efficiency carries the speedup's band over the same GPU ratio (JSON, and --wide's eff column).
python3 - "$tmp/p3.json" "$tmp/wide.txt" <<'PY' && say ok "scaling efficiency: the speedup's band, in JSON and --wide" || say fail "efficiency band"
import json, re, sys
rows = json.load(open(sys.argv[1]))["results"]
banded = [r for r in rows if "speedup_p10" in r and r["speedup_p10"] < r["speedup_p90"]]  # not the base row
assert banded, "no banded row"
for r in banded:
    ratio = r["scaling_efficiency"] / r["speedup"]
    assert abs(r["scaling_efficiency_p10"] - r["speedup_p10"] * ratio) < 1e-9, r
    assert r["scaling_efficiency_p10"] <= r["scaling_efficiency"] <= r["scaling_efficiency_p90"], r
    assert r["scaling_efficiency_p10"] < r["scaling_efficiency_p90"], r
assert re.search(r"\b\d+% \(\d+-\d+\)", open(sys.argv[2]).read()), "no banded eff cell in --wide"
PY
"$ddpsim" scenario scenarios/p3_8node.yaml --format csv | head -1 | grep -q "samples_per_s,steps,total_time_s.*compute_s,comm_s,exposed_comm_s" &&
  say ok "CSV keeps every column" || say fail "CSV lost columns"

# --samples: 0 when nothing uncertain moves a result, 16 when something does. On one node the
# [assume] latencies move only the all-reduce, hidden under the input-bound step; across nodes
# they move how long NCCL's socket threads take the loader's vCPUs (docs/model.md "Input pipeline").
sed -e 's/^  nodes: \[1, 2, 4, 8\]/  nodes: [1]/' -e '/^observed:/,$d' scenarios/p3_8node.yaml >"$tmp/p3_one.yaml"
"$ddpsim" scenario "$tmp/p3_one.yaml" --format json >"$tmp/p3_one.json"
python3 - "$tmp/p3_one.json" "$tmp/p3.json" <<'PY' && say ok "p3_8node: no interval on one node (the [assume] latencies do not move an input-bound job), intervals across nodes" || say fail "p3_8node sampled"
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["results"]) == 1, "one row"
assert not any(k.endswith("_p10") for r in j["results"] for k in r), "bands present"
assert not any("Latin-hypercube" in n for n in j["notes"]), j["notes"]
multi = json.load(open(sys.argv[2]))["results"]
assert multi[1]["step_time_s_p10"] < multi[1]["step_time_s_p90"], multi[1]
PY
"$ddpsim" scenario "$tmp/p3_one.yaml" --samples 16 --format json >"$tmp/p3s.json"
python3 - "$tmp/p3s.json" <<'PY' && say ok "--samples 16 still samples (bands zero-width, JSON keeps them)" || say fail "--samples 16"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["total_time_s_p10"] == r["total_time_s_p90"], r
PY
"$ddpsim" scenario scenarios/p3_8node_fitted.yaml --format json | grep -q '"total_time_s_p10"' &&
  say ok "p3_8node_fitted: the fit's covariance is sampled by default" || say fail "fitted scenario not sampled"
start=$(date +%s%N); "$ddpsim" scenario "$tmp/p3_one.yaml" >/dev/null; auto=$(( ($(date +%s%N) - start) / 1000000 ))
start=$(date +%s%N); "$ddpsim" scenario "$tmp/p3_one.yaml" --samples 16 >/dev/null; forced=$(( ($(date +%s%N) - start) / 1000000 ))
echo "     p3_8node: default ${auto} ms, --samples 16 ${forced} ms"
exit $fail
