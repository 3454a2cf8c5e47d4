#!/usr/bin/env bash
# `ddpsim expect` (issue 20): expected nccl-tests busbw per size with p10 <= p50 <= p90 and its
# provenance (catalog, profile, fit data); `--check LOG` grades a log size by size. Logs: a
# prediction written in nccl-tests' own format (every size must pass), the same log with every
# time doubled (busbw halved: every size slow, exit 1) and halved (fast, exit 0), and the real
# logs in tests/data (one verdict line per size of the log).
set -u
ddpsim=$1 data=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$ddpsim" expect --instance p5.48xlarge --nodes 2,4,8 --format json >"$tmp/e.json" && say ok "expect p5 2,4,8 nodes" ||
  say fail "expect failed"
python3 - "$tmp/e.json" <<'PY' && say ok "p10 <= p50 <= p90 on every row, 31 sizes x 3 node counts, provenance names profile and logs" || say fail "expect JSON"
import json, sys
e = json.load(open(sys.argv[1]))
rows = e["rows"]
assert len(rows) == 3 * 31, len(rows)
assert {r["nodes"] for r in rows} == {2, 4, 8} and all(r["ranks"] == 8 * r["nodes"] for r in rows)
assert all(0 < r["busbw_p10_GBps"] <= r["busbw_p50_GBps"] <= r["busbw_p90_GBps"] for r in rows), rows[:3]
assert any(r["busbw_p10_GBps"] < r["busbw_p90_GBps"] for r in rows)  # a spread, not a point
assert all(r["points"] > 0 for r in rows if r["nodes"] > 1)
p = " ".join(e["provenance"])
assert "catalog" in p and "profiles/p5.48xlarge.yaml" in p and "p5_2node_16gpu_allreduce_awsome.txt" in p, p
big = [r for r in rows if r["bytes"] == 8 << 30]
assert big[0]["busbw_p50_GBps"] > 10, big  # 8 GiB on 2 p5 nodes: tens of GB/s, not a unit slip
PY
"$ddpsim" expect --instance p4d.24xlarge --nodes 2 --profile none -b 1M -e 1G >"$tmp/cat.txt" &&
  grep -q "profile: none" "$tmp/cat.txt" && grep -q "the catalog price's measured error" "$tmp/cat.txt" &&
  say ok "catalog alone: provenance says so and names the measured error it spreads by" || say fail "catalog-only provenance"
# Across nodes the catalog's price carries its measured error (0.408 at 2 nodes, the drift beyond),
# with the catalog alone and with a profile fitted on one node (its network is the catalog's).
"$ddpsim" expect --instance p4d.24xlarge --nodes 1,2,8 --profile none -b 1G -e 1G --format json >"$tmp/cat2.json"
"$ddpsim" calibrate fit "$data/p5_1node_8gpu_allreduce_awsbatch.txt" --instance p5.48xlarge --output "$tmp/one.yaml" >/dev/null 2>&1
"$ddpsim" expect --instance p5.48xlarge --nodes 2 --profile "$tmp/one.yaml" -b 1G -e 1G --format json >"$tmp/one.json"
python3 - "$tmp/cat2.json" "$tmp/one.json" <<'PY' && say ok "expect on the catalog's price: its measured error (one node, across nodes, wider beyond 2 nodes)" ||
import json, math, sys
z = 1.2815516
want = {1: math.exp(2 * z * 0.119), 2: math.exp(2 * z * 0.408), 8: math.exp(2 * z * math.hypot(0.408, 2 * 0.224))}
for f in sys.argv[1:]:
    for r in json.load(open(f))["rows"]:
        got = r["busbw_p90_GBps"] / r["busbw_p10_GBps"]
        assert abs(got / want[r["nodes"]] - 1) < 0.02, (f, r, want)
PY
  say fail "expect across nodes on the catalog's price"

# A log in nccl-tests' format (ddpsim collective's table) whose times are expect's p50: every size passes.
"$ddpsim" collective --instance p5.48xlarge --nodes 2 -b 1K -e 1G -f 4 >"$tmp/model.txt"
"$ddpsim" expect --instance p5.48xlarge --nodes 2 -b 1K -e 1G -f 4 --format json >"$tmp/p50.json"
python3 - "$tmp/model.txt" "$tmp/p50.json" >"$tmp/self.txt" <<'PY'
import json, sys
p50 = {r["bytes"]: r["busbw_p50_GBps"] for r in json.load(open(sys.argv[2]))["rows"]}
for line in open(sys.argv[1]):
    f = line.split()
    if line.startswith("#") or not f or int(f[0]) not in p50:
        print(line, end=""); continue
    b = int(f[0]); bus = p50[b]; alg = bus / (2 * 15 / 16); t = b / (alg * 1e3)
    f[5] = f[9] = "%.1f" % t; f[6] = f[10] = "%.2f" % alg; f[7] = f[11] = "%.2f" % bus
    print("  ".join(f))
PY
"$ddpsim" expect --instance p5.48xlarge --check "$tmp/self.txt" >"$tmp/self.out"; rc=$?
sizes=$(grep -c '^ *[0-9]' "$tmp/self.txt")
if [ $rc = 0 ] && [ "$(grep -c ' pass$' "$tmp/self.out")" = "$sizes" ]; then say ok "a log at expect's p50: $sizes/$sizes pass, exit 0"
else say fail "log at p50: rc=$rc, $(grep -c ' pass$' "$tmp/self.out")/$sizes pass"; fi
# Times x2 (busbw / 2): slow, exit 1; times / 2: fast, exit 0.
scale() {  # scale LOG FACTOR: time and bandwidth columns of every result row
  awk -v f="$2" '/^ *[0-9]/ { $6 = sprintf("%.1f", $6 * f); $7 = sprintf("%.2f", $7 / f); $8 = sprintf("%.2f", $8 / f);
                 $10 = sprintf("%.1f", $10 * f); $11 = sprintf("%.2f", $11 / f); $12 = sprintf("%.2f", $12 / f) } { print }' "$1"
}
scale "$tmp/self.txt" 2 >"$tmp/slow.txt"
"$ddpsim" expect --instance p5.48xlarge --check "$tmp/slow.txt" >"$tmp/slow.out"; rc=$?
[ $rc = 1 ] && [ "$(grep -c ' slow$' "$tmp/slow.out")" = "$sizes" ] && say ok "half the busbw: $sizes slow, exit 1" ||
  say fail "half busbw: rc=$rc, $(grep -c ' slow$' "$tmp/slow.out") slow"
scale "$tmp/self.txt" 0.5 >"$tmp/fast.txt"
"$ddpsim" expect --instance p5.48xlarge --check "$tmp/fast.txt" >"$tmp/fast.out"; rc=$?
[ $rc = 0 ] && [ "$(grep -c '^ *[0-9].* fast$' "$tmp/fast.out")" = "$sizes" ] && say ok "twice the busbw: $sizes fast, exit 0" ||
  say fail "twice busbw: rc=$rc, $(grep -c ' fast$' "$tmp/fast.out") fast"
# Real logs: one verdict per size; exit 1 exactly when a size is slow.
for log in p5_2node_16gpu_allreduce_awsome.txt p4de_2node_16gpu_allreduce_awsome.txt p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt; do
  inst=$(case $log in p5*) echo p5.48xlarge;; p4de*) echo p4de.24xlarge;; *) echo p3dn.24xlarge;; esac)
  "$ddpsim" expect --instance $inst --check "$data/$log" >"$tmp/real.out"; rc=$?
  rows=$(grep -cE '^ *[0-9]+ +busbw' "$tmp/real.out")
  slow=$(grep -c ' slow$' "$tmp/real.out")
  pass=$(grep -c ' pass$' "$tmp/real.out")
  # The profile was fitted on this log: most sizes fall inside their p10-p90 (about 80% by construction).
  if [ "$rows" -gt 10 ] && [ $((pass * 100)) -ge $((rows * 70)) ] && { { [ "$slow" -gt 0 ] && [ $rc = 1 ]; } || { [ "$slow" = 0 ] && [ $rc = 0 ]; }; }; then
    say ok "$log: $rows sizes graded ($(tail -1 "$tmp/real.out" | sed 's/^# //'))"
  else say fail "$log: rc=$rc rows=$rows slow=$slow"; fi
done
# Round 4 session 29: beyond the nodes the profile measured (2) the spread widens by the drift;
# below the sizes a profile without a fitted latency measured (case A: from 32 MiB), the catalog
# price's error (p90 / p10 busbw = exp(2 x 1.2816 x 0.408) on 2 nodes).
"$ddpsim" expect --instance p5.48xlarge --nodes 2,8 -b 8M -e 8M --format json >"$tmp/drift.json"
"$ddpsim" calibrate fit "$data/p5_1node_8gpu_allreduce_awsbatch.txt" "$data/p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv" \
  --instance p5.48xlarge --output "$tmp/caseA.yaml" >/dev/null 2>&1
"$ddpsim" expect --instance p5.48xlarge --nodes 2 -b 8 -e 8G -f 1024 --profile "$tmp/caseA.yaml" --format json >"$tmp/caseA.json"
python3 - "$tmp/drift.json" "$tmp/caseA.json" <<'PY' && say ok "expect: the drift beyond the fitted nodes, the catalog's error below the fitted sizes" ||
import json, math, sys
d = {r["nodes"]: r["busbw_p90_GBps"] / r["busbw_p10_GBps"] for r in json.load(open(sys.argv[1]))["rows"]}
assert d[8] > 1.5 * d[2], d
a = {r["bytes"]: r for r in json.load(open(sys.argv[2]))["rows"]}
cat = math.exp(2 * 1.2815516 * 0.408)
for b in (8, 8192, 8 << 20):
    assert a[b]["points"] == 0 and abs(a[b]["busbw_p90_GBps"] / a[b]["busbw_p10_GBps"] / cat - 1) < 0.02, a[b]
assert a[8 << 30]["points"] > 0 and a[8 << 30]["busbw_p90_GBps"] / a[8 << 30]["busbw_p10_GBps"] < 1.5, a[8 << 30]
PY
  say fail "expect: drift or unfitted latency"
check "wrong instance for the log" 2 "ranks" "$ddpsim" expect --instance p4d.24xlarge --gpus-per-node 3 --check "$data/p5_2node_16gpu_allreduce_awsome.txt"
exit $fail
