#!/usr/bin/env bash
# Issue 17 item 3: one default-profile rule. By default `ddpsim scenario` and `ddpsim collective`
# both apply the shipped profile of the instance (profiles/<instance>.yaml) and say so; the same
# 32 MiB all-reduce then costs the same in a one-bucket DDP scenario as in `collective`, and
# `profile: none` / `--profile none` agree with each other on the catalog alone.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=${DDPSIM:?set DDPSIM to the binary}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bytes=33554432  # one fp32 layer of 8 Mi parameters: one DDP bucket under a 64 MiB cap

scenario() {  # INSTANCE NODES PROFILE_LINE
  cat <<YAML
name: one bucket on $1
cluster: {instance: $1, nodes: [$2]}
model:
  layers: [{name: fc, params: 8388608, fwd_flops: 1000}]
training: {framework: pytorch-ddp, batch_per_gpu: 1, bucket_cap_mb: 64, first_bucket_mb: 64, steps: 1}
$3
YAML
}

compare() {  # INSTANCE NODES SCENARIO_PROFILE_LINE COLLECTIVE_PROFILE_ARGS... -> prints "scenario_us collective_us"
  local inst=$1 nodes=$2 line=$3; shift 3
  scenario "$inst" "$nodes" "$line" >"$tmp/s.yaml"
  "$ddpsim" scenario "$tmp/s.yaml" --format json --samples 0 >"$tmp/s.json" || { echo "scenario failed"; return 1; }
  "$ddpsim" collective --instance "$inst" --nodes "$nodes" -b $bytes -e $bytes --format json "$@" >"$tmp/c.json" 2>"$tmp/c.err" ||
    { echo "collective failed"; return 1; }
  python3 - "$tmp/s.json" "$tmp/c.json" <<'PY'
import json, sys
s, c = (json.load(open(p)) for p in sys.argv[1:3])
b = s["results"][0]["buckets"]
assert len(b) == 1, f"expected one bucket, got {len(b)}"
prof = lambda x: x.replace(" ", "_")  # one word each for `read`
print(f'{b[0]["time_s"] * 1e6:.3f} {c["rows"][0]["time_us"]:.3f} {prof(s["profile"])} {prof(c["profile"])}')
PY
}

for inst in p5.48xlarge p4de.24xlarge p3dn.24xlarge; do
  for nodes in 2 16; do
    read -r s c sp cp < <(compare "$inst" "$nodes" "" 2>&1) || true
    if [ -n "${c:-}" ] && python3 -c "import sys; s, c = float('$s'), float('$c'); sys.exit(abs(s / c - 1) > 1e-6)"; then
      say ok "$inst x$nodes default: scenario $s us = collective $c us"
    else
      say fail "$inst x$nodes default: scenario ${s:-?} us, collective ${c:-?} us"
    fi
    case "$sp" in *"shipped_profiles/$inst.yaml"*) say ok "$inst scenario names its profile" ;;
                  *) say fail "$inst scenario profile: $sp" ;; esac
    read -r s c _ < <(compare "$inst" "$nodes" "communication: {profile: none}" --profile none 2>&1) || true
    if [ -n "${c:-}" ] && python3 -c "import sys; s, c = float('$s'), float('$c'); sys.exit(abs(s / c - 1) > 1e-6)"; then
      say ok "$inst x$nodes profile none: scenario $s us = collective $c us"
    else
      say fail "$inst x$nodes profile none: scenario ${s:-?} us, collective ${c:-?} us"
    fi
  done
done
# The table says which profile was applied.
scenario p5.48xlarge 2 "" >"$tmp/s.yaml"
"$ddpsim" scenario "$tmp/s.yaml" --samples 0 | grep -q '^network profile: shipped profiles/p5.48xlarge.yaml' &&
  say ok "table names the profile" || say fail "table does not name the profile"
# One instance check for every command that takes a profile (app/input/profile_io.hpp): a p5
# profile given for p4de is refused at the profile's own `instance:` line, the same words each time.
p5="$(cd "$(dirname "$0")/../.." && pwd)/profiles/p5.48xlarge.yaml"
at="p5.48xlarge.yaml:2:1: error: instance: profile is for p5.48xlarge, not p4de.24xlarge"
scenario p4de.24xlarge 2 "communication: {profile: $p5}" >"$tmp/m.yaml"
check "scenario: profile for another instance" 2 "$at" "$ddpsim" scenario "$tmp/m.yaml" --samples 0
check "collective: profile for another instance" 2 "$at" "$ddpsim" collective --instance p4de.24xlarge --nodes 2 --profile "$p5"
check "expect: profile for another instance" 2 "$at" "$ddpsim" expect --instance p4de.24xlarge --profile "$p5"
check "calibrate export: profile for another instance" 2 "$at" \
  "$ddpsim" calibrate export "$p5" --instance p4de.24xlarge --nccl-tuner "$tmp/t.csv"
exit $fail
