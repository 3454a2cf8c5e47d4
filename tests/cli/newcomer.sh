#!/usr/bin/env bash
# Issue 11 item 5 through the real binary: --help shows defaults, one naming scheme with the old
# spellings still accepted, several scenarios and stdin per call, --trace-config and
# --trace-all-nodes, `ddpsim algorithms`, engine: in the scenario.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 root=$2
sc=$root/scenarios
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { timeout 120 "$ddpsim" "$@"; }

# --help: every option with a default shows it.
run scenario --help >"$tmp/help.txt"
for want in '\{table,json,csv,html\}=table' 'samples TEXT:.*=auto' 'max-memory TEXT=4GiB' 'default: the scenario.s engine:, else analytical'; do
  grep -Eq -- "$want" "$tmp/help.txt" && say ok "scenario --help shows $want" || say fail "scenario --help lacks $want"
done
run collective --help | grep -q -- '--algorithm TEXT:{auto,.*}=auto' && say ok "collective --help: --algorithm =auto" ||
  say fail "collective --help: --algorithm default"
run collective --help | grep -q -- '--algo\b' && say fail "--algo alias visible in --help" || say ok "--algo alias hidden"

# Old spellings still work and mean the same.
a=$(run collective --instance p4d.24xlarge --nodes 2 --algorithm ring --format csv)
b=$(run collective --instance p4d.24xlarge --nodes 2 --algo ring --format csv)
[ -n "$a" ] && [ "$a" = "$b" ] && say ok "--algo is --algorithm" || say fail "--algo differs from --algorithm"
log=$root/tests/data/p5_2node_16gpu_allreduce_awsome.txt
run calibrate fit "$log" --instance p5.48xlarge --output "$tmp/new.yaml" 2>/dev/null &&
  run calibrate fit "$log" --instance p5.48xlarge --out "$tmp/old.yaml" 2>/dev/null && cmp -s "$tmp/new.yaml" "$tmp/old.yaml" &&
  say ok "calibrate fit --output and --out" || say fail "calibrate fit --output/--out"
check missing_output 2 "--output: missing" run calibrate fit "$log" --instance p5.48xlarge

# Several files and stdin in one call.
run scenario "$sc/p3_8node.yaml" --format json --samples 0 >"$tmp/one.json"
run scenario - --format json --samples 0 <"$sc/p3_8node.yaml" >"$tmp/stdin.json"
sed 's/"scenario": .*/X/' "$tmp/one.json" | cmp -s - <(sed 's/"scenario": .*/X/' "$tmp/stdin.json") &&
  say ok "stdin gives the file's report" || say fail "stdin report differs"
run scenario "$sc/p3_8node.yaml" "$sc/resnet50_p4d.yaml" --format csv --samples 0 >"$tmp/two.csv" &&
  head -1 "$tmp/two.csv" | grep -q '^scenario,instance,' && grep -q '^p3_8node,' "$tmp/two.csv" && grep -q '^resnet50_p4d,' "$tmp/two.csv" &&
  say ok "two scenarios, one CSV" || say fail "two scenarios CSV"
run scenario "$sc/p3_8node.yaml" "$sc/resnet50_p4d.yaml" --format json --samples 0 | python3 -c \
  'import json,sys; d=json.load(sys.stdin); sys.exit(0 if len(d) == 2 and d[1]["scenario"] == "resnet50_p4d" else 1)' &&
  say ok "two scenarios, one JSON array" || say fail "two scenarios JSON"
check stdin_twice 2 "stdin" run scenario - - --samples 0

# --trace-config picks the configuration; --trace-all-nodes draws every node.
run scenario "$sc/p3_8node.yaml" --samples 0 --trace "$tmp/t.json" --trace-config 2 >/dev/null &&
  grep -q '"nodes": "2"' "$tmp/t.json" && say ok "--trace-config 2" || say fail "--trace-config 2"
check trace_config_missing 2 "--trace-config" run scenario "$sc/p3_8node.yaml" --samples 0 --trace "$tmp/u.json" --trace-config 3
run scenario "$sc/bert_large_p3dn.yaml" --samples 0 --trace "$tmp/s.json" --trace-config 8:smddp >/dev/null &&
  grep -q '"framework": "smddp"' "$tmp/s.json" && say ok "--trace-config 8:smddp" || say fail "--trace-config 8:smddp"
sed -e 's/^  nodes: \[1, 2, 4, 8\]/  nodes: [20]/' -e '/^observed:/,$d' "$sc/p3_8node.yaml" >"$tmp/twenty.yaml"
cp -r "$sc/jobs" "$tmp/" 2>/dev/null
run scenario "$tmp/twenty.yaml" --samples 0 --trace "$tmp/16.json" >/dev/null
run scenario "$tmp/twenty.yaml" --samples 0 --trace "$tmp/20.json" --trace-all-nodes >/dev/null
a=$(grep -o '"process_name"' "$tmp/16.json" | wc -l) b=$(grep -o '"process_name"' "$tmp/20.json" | wc -l)
[ "$a" = 16 ] && [ "$b" = 20 ] && say ok "trace nodes: 16 by default, 20 with --trace-all-nodes" ||
  say fail "trace nodes: $a / $b"

# `ddpsim algorithms`: every algorithm with its summary, the new ring broadcast among them.
run algorithms >"$tmp/algos.txt"
grep -q '^ring-broadcast .*broadcast .*no .*pipelined' "$tmp/algos.txt" && grep -q '^ring .*all_reduce' "$tmp/algos.txt" &&
  say ok "algorithms listing" || say fail "algorithms listing"
run collective --instance p4d.24xlarge --nodes 4 --op broadcast --algorithm ring-broadcast --format csv | grep -q ring-broadcast &&
  say ok "broadcast over the pipelined ring" || say fail "collective --op broadcast --algorithm ring-broadcast"

# engine: in the scenario (the report says which backend ran); --engine overrides it.
sed 's/^name: p3_8node/name: p3_8node\nengine: flow/' "$sc/p3_8node.yaml" >"$tmp/flow.yaml"
cp -r "$sc/jobs" "$tmp/" 2>/dev/null
run scenario "$tmp/flow.yaml" --samples 0 --format json | grep -q '"engine": "flow"' && say ok "engine: flow" || say fail "engine: flow"
run scenario "$tmp/flow.yaml" --samples 0 --format json --engine analytical | grep -q '"engine": "analytical"' &&
  say ok "--engine overrides engine:" || say fail "--engine override"
exit $fail
