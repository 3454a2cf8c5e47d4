#!/usr/bin/env bash
# Issue 21's reproducers through the real binary: each ends within 20 s and 4 GB with a correct
# result (every number finite, efficiency at most 1) or exit 2 with one located line.
#   issue21.sh DDPSIM TESTS_DIR
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 dir=$2/cli/issue21
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 1

# bounded CMD...: runs CMD under 20 s and a 6 GB address-space cap; fails past 20 s or 4 GB RSS.
bounded() {
  local t0 rc
  t0=$(date +%s%N)
  ( ulimit -v 6000000; exec timeout 20 /usr/bin/time -o "$tmp/rss" -f "%M" "$@" ); rc=$?
  local ms=$(( ($(date +%s%N) - t0) / 1000000 )) kib
  kib=$(tail -1 "$tmp/rss" 2>/dev/null)
  if [ "$rc" = 124 ] || [ "$ms" -ge 20000 ] || [ "${kib:-0}" -ge 4194304 ] 2>/dev/null; then
    echo "FAIL bounds: $* took ${ms} ms, ${kib:-?} KiB" >&2; return 99
  fi
  echo "$ms ms, ${kib:-?} KiB" >"$tmp/cost"
  return "$rc"
}
# finite FILE: no inf or nan anywhere in FILE.
finite() { ! grep -qiE '(^|[^a-z])-?(inf|nan)([^a-z]|$)' "$1"; }

# The YAML reader is linear with aliases: 9 levels of 10 aliases (10^9 nodes expanded) is refused.
check "billion laughs" 2 "billion_laughs.yaml:" bounded "$ddpsim" scenario billion_laughs.yaml
check "billion laughs message" 2 "aliases expand this document" bounded "$ddpsim" scenario billion_laughs.yaml
# 80,000 keys in one map, the last a duplicate: found at its line, in time linear in the keys
# (was 9.6 s, quadratic: 16x the time for 4x the keys). 4x the keys must cost well under 16x.
keys() { awk -v n="$1" 'BEGIN { print "name: x"; print "extra:"; for (i = 0; i < n; i++) print "  k" i ": " i; print "  k5: again" }'; }
keys 20000 >"$tmp/keys20k.yaml"; keys 80000 >"$tmp/keys.yaml"
t0=$(date +%s%N)
check "20,000 keys" 2 "keys20k.yaml:20003:3: error: extra.k5: duplicate key" bounded "$ddpsim" scenario "$tmp/keys20k.yaml"
t1=$(date +%s%N)
check "80,000 keys" 2 "keys.yaml:80003:3: error: extra.k5: duplicate key" bounded "$ddpsim" scenario "$tmp/keys.yaml"
t2=$(date +%s%N)
small=$(( (t1 - t0) / 1000000 )) large=$(( (t2 - t1) / 1000000 ))
[ "$large" -lt 8000 ] && [ "$large" -lt $(( 8 * small )) ] && say ok "keys: 20,000 in ${small} ms, 80,000 in ${large} ms (linear)" ||
  say fail "keys: 20,000 in ${small} ms, 80,000 in ${large} ms (not linear)"
# Standard input is capped like a file.
check "stdin over 256 MiB" 2 "<stdin>: error: larger than 256 MiB" \
  bounded bash -c "yes 'a: 1' | head -c 300000000 | '$ddpsim' scenario -"
# Collectives per step count in the memory estimate: refused before building, naming the field.
check "zero-2 with 1 KiB buckets" 2 "zero2_tiny_buckets.yaml:6:" bounded "$ddpsim" scenario zero2_tiny_buckets.yaml
check "zero-2 with 1 KiB buckets field" 2 "bucket_cap_mb" bounded "$ddpsim" scenario zero2_tiny_buckets.yaml
# Internal errors that were user errors.
check "gloo with herring" 2 "gloo_herring.yaml:6:" bounded "$ddpsim" scenario gloo_herring.yaml
check "job profile without covariance_ln" 2 "job_profile_no_covariance.yaml:" \
  bounded "$ddpsim" scenario scenario_no_covariance.yaml
check "plan price 1e308" 2 "plan_price_1e308.yaml:26:28:" bounded "$ddpsim" plan plan_price_1e308.yaml
check "plan price 1e308 (html)" 2 "pricing.per_hour.p4d.24xlarge" \
  bounded "$ddpsim" plan plan_price_1e308.yaml --format html -o "$tmp/p.html"

# A one-rank collective moves nothing: 0 time, 0 GB/s, never inf or nan.
if bounded "$ddpsim" collective --instance p5en.48xlarge --nodes 1 --gpus-per-node 1 --algorithm herring -b 8 -e 16 \
     --profile none >"$tmp/c.txt" 2>"$tmp/c.err" && finite "$tmp/c.txt" && grep -q '^ *8 ' "$tmp/c.txt"; then
  say ok "one-rank collective: finite ($(grep '^ *8 ' "$tmp/c.txt" | tr -s ' ' | cut -c1-60))"
else
  say fail "one-rank collective: $(cat "$tmp/c.err") $(grep -iE 'inf|nan' "$tmp/c.txt" | head -1)"
fi

# Efficiency never above 1 for the same framework and per-GPU work (was 4.0036 on 4 p5).
if bounded "$ddpsim" scenario gpt2xl_tf32_p5.yaml --format csv >"$tmp/g.csv" 2>"$tmp/g.err" && finite "$tmp/g.csv"; then
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           { e = $col["scaling_efficiency"]; print "nodes " $col["nodes"] " efficiency " e; if (e > 1 + 1e-9) bad = 1 }
           END { exit bad }' "$tmp/g.csv" >"$tmp/g.txt" &&
    say ok "gpt2-xl tf32 on 1/2/4 p5: $(tr '\n' ';' <"$tmp/g.txt")" || say fail "efficiency above 1: $(tr '\n' ';' <"$tmp/g.txt")"
else
  say fail "gpt2-xl tf32 on p5: $(cat "$tmp/g.err")"
fi
exit $fail
