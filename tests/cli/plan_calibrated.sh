#!/usr/bin/env bash
# Issue 17: `ddpsim plan` runs through the twin (sim/study/twin.hpp). A plan over
# scenarios/p3_8node_fitted.yaml's cluster with its `calibration:` predicts the calibrated
# scenario's step on every node count, keeps the uncalibrated step beside it, and says so in text
# and JSON; the variant the profile does not transfer to is not called calibrated.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { timeout 300 "$ddpsim" "$@"; }

run scenario "$root/scenarios/p3_8node_fitted.yaml" --samples 0 --format json >"$tmp/scenario.json" 2>"$tmp/err.txt" ||
  say fail "scenario: $(cat "$tmp/err.txt")"
run plan "$root/tests/data/plan_fitted.yaml" --format json >"$tmp/plan.json" 2>"$tmp/err.txt" ||
  say fail "plan: $(cat "$tmp/err.txt")"
run plan "$root/tests/data/plan_fitted.yaml" --format json --jobs 2 >"$tmp/plan2.json" 2>/dev/null
cmp -s "$tmp/plan.json" "$tmp/plan2.json" && say ok "plan --jobs 2 gives the same bytes" || say fail "plan --jobs 2 differs"
python3 - "$tmp/scenario.json" "$tmp/plan.json" <<'PY' && say ok "plan = calibrated scenario on p3.16xlarge x1,2,4,8; says calibrated" || say fail "plan does not reproduce the calibrated scenario"
import json, sys
s = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
assert p["calibrated"] is True and p["calibration"] == "p3_8node_fitted.yaml", (p["calibrated"], p["calibration"])
want = {r["nodes"]: r for r in s["results"]}
rows = [r for r in p["rows"] if r["instance"] == "ml.p3.16xlarge"]
assert sorted(r["nodes"] for r in rows) == [1, 2, 4, 8]
for r in rows:
    w = want[r["nodes"]]
    assert r["calibrated"] is True
    assert r["step_time_s"] == w["step_time_s"], (r["nodes"], r["step_time_s"], w["step_time_s"])
    assert r["uncalibrated_step_time_s"] == w["uncalibrated_step_time_s"]
    assert r["uncalibrated_step_time_s"] != r["step_time_s"]  # the calibration changed something
other = [r for r in p["rows"] if r["instance"] == "p3dn.24xlarge"]
assert other and all(r["calibrated"] is False and "uncalibrated_step_time_s" not in r for r in other)
PY
run plan "$root/tests/data/plan_fitted.yaml" >"$tmp/plan.txt" 2>/dev/null
grep -q '^calibrated: job profile p3_8node_fitted.yaml (calibration:) applied to 1 of 2 variant' "$tmp/plan.txt" &&
  say ok "text: $(grep '^calibrated:' "$tmp/plan.txt")" || say fail "text does not say calibrated: $(head -4 "$tmp/plan.txt")"
# Without `calibration:` the plan says it is not calibrated.
grep -v '^calibration:' "$root/tests/data/plan_fitted.yaml" >"$tmp/plain.yaml"
run plan "$tmp/plain.yaml" --format json 2>/dev/null | python3 -c 'import json,sys; p=json.load(sys.stdin); assert p["calibrated"] is False and p["calibration"] is None and not any(r["calibrated"] for r in p["rows"])' &&
  say ok "without calibration: calibrated false" || say fail "without calibration: says calibrated"
exit $fail
