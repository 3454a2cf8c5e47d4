#!/usr/bin/env bash
# Sharded runs (issue 11): `scenario|plan --shard I/N` then `ddpsim merge` must print exactly the
# serial report (cmp, every format) for 1, 3 and 7 shards; every example scenario merges exactly
# from 3 shards (what-ifs, compiler rows, calibration bands travel too); the scheduler environment
# picks the shard; mismatched, missing, duplicate and truncated shards are refused (exit 2).
set -u
ddpsim=$1 root=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scenario=$root/scenarios/horovod_vs_ddp_p3.yaml plan=$root/scenarios/plans/gpt2xl.yaml

# same_as_serial CMD FILE N [OPTIONS...]: N shards merged equal the serial run in every format.
same_as_serial() {
  local cmd=$1 file=$2 n=$3; shift 3
  local shards=() i fmt
  for ((i = 0; i < n; i++)); do
    "$ddpsim" "$cmd" "$file" --shard "$i/$n" "$@" -o "$tmp/s$i.jsonl" || { say fail "$cmd $(basename "$file") shard $i/$n failed"; return; }
    shards+=("$tmp/s$i.jsonl")
  done
  for fmt in table json csv; do
    "$ddpsim" "$cmd" "$file" --format $fmt "$@" >"$tmp/serial.$fmt"
    "$ddpsim" merge "${shards[@]}" --format $fmt >"$tmp/merged.$fmt" || { say fail "merge $n $fmt failed"; continue; }
    if cmp -s "$tmp/serial.$fmt" "$tmp/merged.$fmt"; then say ok "$cmd $(basename "$file") $* $n shards $fmt == serial"
    else say fail "$cmd $(basename "$file") $* $n shards $fmt differs from serial"; fi
  done
}
for n in 1 3 7; do
  same_as_serial scenario "$scenario" $n
  same_as_serial plan "$plan" $n
done
same_as_serial plan "$plan" 3 --jobs 2
# goal.confidence 0.9: rows judged by the p90 of their intervals, which the shards carry (a smaller plan).
sed -e 's/instance: \[.*\]/instance: [p4de.24xlarge, p5.48xlarge]/' -e 's/to: 64/to: 8/' -e 's/minimize: cost/minimize: cost\n  confidence: 0.9/' \
  "$plan" >"$tmp/p90.yaml"
grep -q "confidence: 0.9" "$tmp/p90.yaml" || say fail "p90 plan not written"
same_as_serial plan "$tmp/p90.yaml" 3
same_as_serial scenario "$scenario" 3 --jobs 2 --engine flow

# Every example scenario from 3 shards, in the JSON format (all fields).
for f in "$root"/scenarios/*.yaml; do
  for i in 0 1 2; do "$ddpsim" scenario "$f" --shard $i/3 -o "$tmp/e$i.jsonl"; done
  "$ddpsim" scenario "$f" --format json >"$tmp/serial.json"
  if "$ddpsim" merge "$tmp"/e{2,0,1}.jsonl --format json -o "$tmp/merged.json" && cmp -s "$tmp/serial.json" "$tmp/merged.json"
  then say ok "$(basename "$f") 3 shards == serial"; else say fail "$(basename "$f") 3 shards differ from serial"; fi
done

# The scheduler's environment: a Slurm array counting from 1, a Kubernetes Indexed Job.
"$ddpsim" scenario "$scenario" --shard 1/3 -o "$tmp/k1.jsonl"
env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 "$ddpsim" scenario "$scenario" --shard >"$tmp/slurm.jsonl"
cmp -s "$tmp/k1.jsonl" "$tmp/slurm.jsonl" && say ok "Slurm task 2 of 1-3 is shard 1/3" || say fail "Slurm task 2 of 1-3 is not shard 1/3"
env JOB_COMPLETION_INDEX=1 DDPSIM_SHARD_COUNT=3 "$ddpsim" scenario "$scenario" --shard auto >"$tmp/k8s.jsonl"
cmp -s "$tmp/k1.jsonl" "$tmp/k8s.jsonl" && say ok "JOB_COMPLETION_INDEX=1 of 3 is shard 1/3" || say fail "JOB_COMPLETION_INDEX=1 is not shard 1/3"
env JOB_COMPLETION_INDEX=1 "$ddpsim" scenario "$scenario" --shard auto/3 >"$tmp/k8s.jsonl"
cmp -s "$tmp/k1.jsonl" "$tmp/k8s.jsonl" && say ok "--shard auto/3" || say fail "--shard auto/3 is not shard 1/3"
check "no scheduler environment" 2 "--shard: no SLURM_ARRAY_TASK_ID" env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX "$ddpsim" scenario "$scenario" --shard
check "no count" 2 "no shard count" env -u SLURM_ARRAY_TASK_ID -u DDPSIM_SHARD_COUNT JOB_COMPLETION_INDEX=0 "$ddpsim" scenario "$scenario" --shard
check "index out of range" 2 "--shard: shard 3 of 3" "$ddpsim" scenario "$scenario" --shard 3/3
check "malformed" 2 "expected I/N" "$ddpsim" plan "$plan" --shard 1-3
check "format with shard" 2 "--format: a shard writes JSON Lines" "$ddpsim" plan "$plan" --shard 0/3 --format csv

# Refusals.
for i in 0 1 2; do "$ddpsim" plan "$plan" --shard $i/3 -o "$tmp/p$i.jsonl"; done
check "missing shard" 2 "shard 1/3 is missing" "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/p2.jsonl"
check "duplicate shard" 2 "is given twice" "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/p1.jsonl" "$tmp/p1.jsonl" "$tmp/p2.jsonl"
sed 's/deadline: 24h/deadline: 25h/' "$plan" >"$tmp/other.yaml"
"$ddpsim" plan "$tmp/other.yaml" --shard 1/3 -o "$tmp/o1.jsonl"
check "different input" 2 "a shard of a different input" "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/o1.jsonl" "$tmp/p2.jsonl"
check "scenario and plan shards" 2 "shards disagree" "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/k1.jsonl"
"$ddpsim" plan "$plan" --shard 1/2 -o "$tmp/q1.jsonl"
check "different N" 2 "shards disagree" "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/q1.jsonl"
head -n -1 "$tmp/p1.jsonl" >"$tmp/cut.jsonl"
check "truncated shard" 2 "(truncated?)" "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/cut.jsonl" "$tmp/p2.jsonl"
check "not a shard" 2 "not a ddpsim shard" "$ddpsim" merge "$plan"
# Issue 17: shard files are JSON with a format version and a SHA-256 per line. One flipped bit
# inside a row (a digit of a number in the row's JSON) is refused at that line; so is a foreign
# JSON Lines file and a shard of another format version.
python3 - "$tmp/p1.jsonl" "$tmp/flip.jsonl" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
row = bytearray(lines[1])
at = row.index(b'"row":[') + 7
at += next(i for i, c in enumerate(row[at:]) if c in b"123456789")  # a nonzero digit inside the row
row[at] ^= 0x01  # one bit: 1<->0, 2<->3, ...
lines[1] = bytes(row)
open(sys.argv[2], "wb").write(b"\n".join(lines))
PY
cmp -s "$tmp/p1.jsonl" "$tmp/flip.jsonl" && say fail "the bit flip changed nothing"
check "flipped bit in a row" 2 "flip.jsonl:2:1: error: check: the line does not match its checksum" \
  "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/flip.jsonl" "$tmp/p2.jsonl"
printf '{"ddpsim_shard_of_another_tool":1,"rows":[]}\n{"index":0}\n' >"$tmp/foreign.jsonl"
check "foreign JSON Lines file" 2 "foreign.jsonl:1:1: error: header: not a ddpsim shard" \
  "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/foreign.jsonl" "$tmp/p2.jsonl"
sed '1s#"ddpsim_shard":3#"ddpsim_shard":2#' "$tmp/p1.jsonl" >"$tmp/old.jsonl"
check "older shard format" 2 "old.jsonl:1:1: error: ddpsim_shard: shard format 2, this ddpsim reads 3" \
  "$ddpsim" merge "$tmp/p0.jsonl" "$tmp/old.jsonl" "$tmp/p2.jsonl"
check "no such file" 2 "nope.jsonl" "$ddpsim" merge "$tmp/nope.jsonl"
exit $fail
