#!/usr/bin/env bash
# Issue 13's reproducers through the real binary: each must give a correct result or exit 2 with
# one located line, never a wrapped number with exit 0, a crash, or exit 70.
#   hardening.sh DDPSIM TESTS_DIR SCENARIOS_DIR
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 tests=$2 scenarios=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# nccl-tests logs that once ate gigabytes, wrote unloadable profiles or lacked a location.
for f in "$tests"/cli/bad_logs/*; do
  want=$(sed -n 's/^# expect: //p' "$f" | head -1)
  check "fit $(basename "$f")" 2 "$f:" "$ddpsim" calibrate fit "$f" --instance p4d.24xlarge --out "$tmp/p.yaml"
  check "fit $(basename "$f") message" 2 "$want" "$ddpsim" calibrate fit "$f" --instance p4d.24xlarge --out "$tmp/p.yaml"
done
[ ! -e "$tmp/p.yaml" ] && say ok "no profile written by a failed fit" || say fail "a failed fit wrote a profile"

# A profile calibrate fit writes loads back.
log="$tests/data/p5_2node_16gpu_allreduce_awsome.txt"
if "$ddpsim" calibrate fit "$log" --instance p5.48xlarge --out "$tmp/fit.yaml" 2>/dev/null &&
   "$ddpsim" collective --instance p5.48xlarge --nodes 2 --profile "$tmp/fit.yaml" -b 1M -e 1M >/dev/null; then
  say ok "a fitted profile loads back"
else
  say fail "a fitted profile does not load back"
fi
# fuzz_profile's finding: a provenance yaml-cpp rejects mid-read is a user error (exit 2), not 70.
check "fuzzed profile (invalid node)" 2 "fuzz_profile_invalid_node.yaml" \
  "$ddpsim" collective --instance p5.48xlarge --nodes 2 --profile "$tests/data/fuzz_profile_invalid_node.yaml"
# A profile for another instance: located at its instance key.
check "profile instance mismatch" 2 "$tmp/fit.yaml:2:1: error: instance: profile is for p5.48xlarge" \
  "$ddpsim" collective --instance p4d.24xlarge --nodes 2 --profile "$tmp/fit.yaml"

# Sizes past the picosecond clock: a user error naming the flag, not a negative time.
check "collective huge sizes" 2 "--max-bytes" \
  "$ddpsim" collective --instance p4d.24xlarge --nodes 2 -b 1152921504606846976 -e 2305843009213693952
check "collective huge sizes, flow" 2 "--max-bytes" \
  "$ddpsim" collective --instance p4de.24xlarge --nodes 33 --op reduce_scatter --algo ring -b 4 -e 1.7e19 --engine flow
# Clusters past the guards: refused at once.
start=$(date +%s%N)
check "collective 65536 nodes" 2 "--nodes: 65536 nodes x 8 GPUs" "$ddpsim" collective --instance p4d.24xlarge --nodes 65536
check "collective over --max-memory" 2 "--max-memory" \
  "$ddpsim" collective --instance p4d.24xlarge --nodes 16384 --engine flow --max-memory 1GiB
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 3000 ] && say ok "guards refuse in ${ms} ms" || say fail "guards took ${ms} ms"
check "bad --max-memory" 2 "--max-memory" "$ddpsim" collective --instance p4d.24xlarge --max-memory lots
# --samples takes auto or a whole decimal number: "0x10" once passed CLI's range check and ran 0 samples.
check "hex --samples" 2 'expected auto or a whole number 0..100000, got "0x10"' \
  "$ddpsim" scenario "$scenarios/p3_8node.yaml" --samples 0x10

# A slow NIC whose step stays inside the clock: a correct, positive result (once wrapped negative).
step=$("$ddpsim" scenario "$tests/data/slow_nic_gpt2xl.yaml" --format csv 2>/dev/null | awk -F, 'NR == 2 {print $7}')
if awk -v s="$step" 'BEGIN { exit !(s > 1e5 && s < 9.2e6) }'; then say ok "slow NIC: step ${step} s"
else say fail "slow NIC: step '${step}'"; fi
# A measured step of 1e6 s on the flow engine: the same answer as analytical (once "a flow never completed").
m="$tmp/m.yaml"
printf '%s\n' 'name: m' 'cluster: {instance: p4d.24xlarge, nodes: 8}' 'model: {preset: resnet50}' \
  'compute: {measured_step_s: 1e6}' 'training: {framework: pytorch-ddp, batch_per_gpu: 256, precision: bf16, samples: 1000000}' >"$m"
a=$("$ddpsim" scenario "$m" --format csv 2>&1 | awk -F, 'NR == 2 {print $7}')
f=$("$ddpsim" scenario "$m" --format csv --engine flow 2>&1 | awk -F, 'NR == 2 {print $7}')
[ -n "$a" ] && [ "$a" = "$f" ] && say ok "1e6 s step: flow step equals analytical ($f s)" || say fail "1e6 s step: analytical '$a' flow '$f'"

# A directory is not a scenario.
check "directory as scenario" 2 "$scenarios: error: is a directory" "$ddpsim" scenario "$scenarios"

# --jobs: an error from a worker reads like the serial one (located, no "error: error:").
bad="$tests/cli/bad/gloo_odd_gpus.yaml"
serial=$("$ddpsim" scenario "$bad" 2>&1 >/dev/null)
check "--jobs error" 2 "$serial" "$ddpsim" scenario "$bad" --jobs 2
if grep -q "error: error:" <<<"$serial"; then say fail "error: error: in $serial"; else say ok "no doubled error prefix"; fi

# Invalid UTF-8 and control characters in user strings: every format stays valid and one line per row.
printf 'name: "bad\\xff\\x01name"\ndescription: "two\\nlines"\n' >"$tmp/utf8.yaml"
sed -n '/^cluster:/,$p' "$tests/cli/bad/unknown_key.yaml" | sed 's/, batch_per_gp: 3//' >>"$tmp/utf8.yaml"
for fmt in json csv table; do
  if "$ddpsim" scenario "$tmp/utf8.yaml" --format $fmt >"$tmp/out.$fmt" 2>"$tmp/err"; then
    if python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' <"$tmp/out.$fmt"; then
      say ok "$fmt output is valid UTF-8"
    else
      say fail "$fmt output is not valid UTF-8"
    fi
  else
    say fail "$fmt run failed: $(cat "$tmp/err")"
  fi
done
python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["scenario"].startswith("bad")' <"$tmp/out.json" &&
  say ok "json parses" || say fail "json does not parse"
[ "$(grep -c '^scenario ' "$tmp/out.table")" = 1 ] && ! grep -q '^lines' "$tmp/out.table" &&
  say ok "table keeps the description on one line" || say fail "table split a user string over lines"


# Workers die with their parent: kill -9 the parent of --jobs 2, then no worker survives.
"$ddpsim" scenario "$scenarios/resnet50_p4d.yaml" --engine flow --jobs 2 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kids=$(pgrep -P $pid | tr '\n' ' ')
kill -9 $pid; wait $pid 2>/dev/null
sleep 0.3
# A killed worker may linger as a zombie when PID 1 (a container's) does not reap: that is dead.
alive=0; for k in $kids; do
  state=$(awk '{print $3}' "/proc/$k/stat" 2>/dev/null)
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ] && alive=$((alive + 1))
done
[ "$alive" = 0 ] && say ok "workers (${kids:-none yet}) died with their parent" || say fail "$alive worker(s) outlived their parent"
exit $fail
