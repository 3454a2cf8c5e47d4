#!/usr/bin/env bash
# `ddpsim collective` and `ddpsim calibrate fit` through the real binary: the nccl-tests table
# has all_reduce_perf's columns, its own output fits back, and bad logs exit 2 with one line
# naming file:line:column while an existing profile survives.
set -u
. "$(dirname "$0")/lib.sh"
data=$1
ddpsim=${DDPSIM:?set DDPSIM to the binary}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# The table: 8 B .. 8 GiB by 2 = 31 rows of 16 fields (out-of-place, in-place, the interval from
# the shipped profile's residuals, algorithm, protocol); busbw = algbw x 2(n-1)/n with n = 16; the
# footer's average is the rows' mean busbw.
"$ddpsim" collective --instance p5.48xlarge --nodes 2 --format nccl-tests >"$tmp/pred.txt" || say fail "collective exit"
rows=$(grep -vc '^#' "$tmp/pred.txt")
[ "$rows" = 31 ] && say ok "31 rows" || say fail "rows: $rows"
awk '!/^#/ { if (NF != 16 || $3 != "float" || $4 != "sum" || $10 != $6 || $12 != $8 || $14 !~ /^[0-9.]+-[0-9.]+$/) bad = 1;
             if ($7 > 10 && ($8 / $7 < 1.87 || $8 / $7 > 1.88)) bad = 1 } END { exit bad }' "$tmp/pred.txt" &&
  say ok "columns and busbw factor" || say fail "columns or busbw factor"
grep -q '^#.*out-of-place.*in-place' "$tmp/pred.txt" && say ok "placement headers" || say fail "placement headers"
awk '!/^#/ { s += $8; n++ } /Avg bus bandwidth/ { avg = $NF } END { exit !(n > 0 && avg > 0 && (avg - s / n) ^ 2 < 0.01 * avg) }' \
  "$tmp/pred.txt" && say ok "Avg bus bandwidth footer" || say fail "Avg bus bandwidth footer"
# --compare in the default format: measured time, busbw and error columns.
"$ddpsim" collective --instance p5.48xlarge --nodes 2 --compare "$data/p5_2node_16gpu_allreduce_awsome.txt" >"$tmp/cmp.txt" ||
  say fail "compare exit"
grep -q '^#.*measured' "$tmp/cmp.txt" && awk '!/^#/ { if ($16 !~ /%$/) bad = 1 } END { exit bad }' "$tmp/cmp.txt" &&
  say ok "compare columns in the nccl-tests format" || say fail "compare columns: $(sed -n 5p "$tmp/cmp.txt")"
"$ddpsim" collective --instance p5.48xlarge --nodes 2 --format json | grep -q '"busbw_GBps"' && say ok json || say fail json
# Deterministic: the same command gives the same bytes.
"$ddpsim" collective --instance p5.48xlarge --nodes 2 --format nccl-tests | cmp -s - "$tmp/pred.txt" &&
  say ok deterministic || say fail "not deterministic"
# Round trip: ddpsim's own table fits back with tiny residuals (the model recovering itself).
"$ddpsim" calibrate fit "$tmp/pred.txt" --instance p5.48xlarge --out "$tmp/self.yaml" 2>/dev/null || say fail "self fit"
grep -q 'efficiency: 1.0000' "$tmp/self.yaml" && say ok "self fit recovers efficiency 1" || say fail "self fit: $(grep efficiency "$tmp/self.yaml")"
# The fitted profile feeds collective.
"$ddpsim" collective --instance p5.48xlarge --nodes 2 --profile "$tmp/self.yaml" >/dev/null && say ok "profile used" || say fail "profile"

# A log of one host thread driving 8 GPUs (nccl-tests -g 8): its rows are priced at the 8 host
# calls' floor where the collective alone is faster; the table says so, and so does each JSON row.
g8="$data/v100x8_cubemesh_1node_allreduce_g8_blog2019.txt"
"$ddpsim" collective --instance dgx1-v100 --nodes 1 --profile none --compare "$g8" 2>"$tmp/g8.err" >"$tmp/g8.txt" &&
  grep -q "one host thread per 8 GPUs" "$tmp/g8.err" && grep -q "^# Launch floor         : 50.3 us on 1[0-9] rows" "$tmp/g8.txt" &&
  say ok "-g 8 log: note and the table's launch floor" || say fail "-g 8 log: $(cat "$tmp/g8.err")"
"$ddpsim" collective --instance dgx1-v100 --nodes 1 --profile none --compare "$g8" --format json 2>/dev/null >"$tmp/g8.json"
python3 - "$tmp/g8.json" <<'PY' && say ok "-g 8 log: JSON rows at the floor flagged, 8 B within 5% of its 48.5 us" || say fail "-g 8 JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert rows[0]["launch_bound"] and abs(rows[0]["time_us"] - 50.32) < 0.01 and abs(rows[0]["time_error"]) < 0.05, rows[0]
assert not rows[-1]["launch_bound"], rows[-1]
assert all(r["launch_bound"] == (abs(r["time_us"] - 50.32) < 0.01) for r in rows)
PY

# --explain: one chosen candidate per size, the smallest estimate where NCCL's estimate decides,
# the tuner's pick on p5 beyond two nodes; not with --compare.
"$ddpsim" collective --instance p5.48xlarge --nodes 8 --profile none -b 8 -e 8G -f 8 --explain --format json >"$tmp/ex.json" &&
python3 - "$tmp/ex.json" <<'PY' && say ok "--explain: one choice per size, tuner or smallest estimate" || say fail "--explain JSON"
import json, sys, collections
by = collections.defaultdict(list)
for c in json.load(open(sys.argv[1]))["candidates"]: by[c["bytes"]].append(c)
assert len(by) == 11, len(by)
who = set()
for b, cs in by.items():
    chosen = [c for c in cs if c["chosen"]]
    assert len(chosen) == 1 and len(cs) >= 5, (b, cs)
    who.add(chosen[0]["chosen_by"])
    if chosen[0]["chosen_by"].startswith("NCCL's estimate"):
        assert chosen[0]["nccl_estimate_us"] == min(c["nccl_estimate_us"] for c in cs), cs
assert any(w.startswith("aws-ofi-nccl's tuner") for w in who), who
PY
# software.as_of on the command line: the stack of a date, said on stderr; a 2024-06 stack has no
# region tuner (aws-ofi-nccl 1.9.1), so NCCL's own estimate chooses on p5 at 4 nodes.
err=$("$ddpsim" collective --instance p5.48xlarge --nodes 4 -b 256M -e 256M --software as_of=2024-06 --explain 2>&1 >"$tmp/asof.txt")
[[ "$err" == *"as of 2024-06-01: NCCL 2.21.5"*"aws-ofi-nccl 1.9.1"* ]] && grep -q "NCCL's estimate" "$tmp/asof.txt" &&
  ! grep -q "tuner plugin" "$tmp/asof.txt" && say ok "--software as_of: noted, and no region tuner before aws-ofi-nccl 1.10" ||
  say fail "--software as_of: $err"
check bad_as_of 2 "not a date" "$ddpsim" collective --instance p5.48xlarge --software as_of=2024
# Herring (SMDDP) drives EFA itself: a stack without aws-ofi-nccl moves NCCL's ring to TCP, not it.
herring() { "$ddpsim" collective --instance p3dn.24xlarge --nodes 2 -b 64M -e 64M --format csv "$@" 2>/dev/null | tail -1; }
[ "$(herring --algorithm herring)" = "$(herring --algorithm herring --software aws_ofi_nccl=none)" ] &&
  [ "$(herring --algorithm ring)" != "$(herring --algorithm ring --software nccl=2.4.6,aws_ofi_nccl=none)" ] &&
  say ok "--software aws_ofi_nccl=none: NCCL's ring repriced, SMDDP's herring not" ||
  say fail "herring with and without aws-ofi-nccl: $(herring --algorithm herring) / $(herring --algorithm herring --software aws_ofi_nccl=none)"
# A Kubernetes pod's veth: NCCL detects no AWS NIC, one socket per connection (said on stderr).
"$ddpsim" collective --instance p3.16xlarge --nodes 2 -b 256M -e 256M --format csv >"$tmp/host.csv" 2>/dev/null
err=$("$ddpsim" collective --instance p3.16xlarge --nodes 2 -b 256M -e 256M --format csv --software pod_network=true 2>&1 >"$tmp/pod.csv")
python3 - "$tmp/host.csv" "$tmp/pod.csv" <<'PY' && [[ "$err" == *"pod network"*"1 TCP flow(s) per connection"* ]] &&
import csv, sys
col = lambda f: float(next(csv.DictReader(open(f)))["time_us"])
host, pod = col(sys.argv[1]), col(sys.argv[2])
assert pod > 2.5 * host, (host, pod)
PY
  say ok "--software pod_network=true: one flow per connection, said on stderr" || say fail "--software pod_network: $err"
check bad_pod 2 "true or false" "$ddpsim" collective --instance p3.16xlarge --software pod_network=yes
# Issue 18: across nodes on the catalog alone, the note says how far its price has been from the
# project's measurements; not on one node, not with a fitted (shipped) profile, not after an error.
note="priced by the catalog alone (no fitted profile)"
e_none=$("$ddpsim" collective --instance p5.48xlarge --nodes 2 -b 1M -e 1M --profile none 2>&1 >/dev/null)
e_one=$("$ddpsim" collective --instance p5.48xlarge --nodes 1 -b 1M -e 1M --profile none 2>&1 >/dev/null)
e_fit=$("$ddpsim" collective --instance p5.48xlarge --nodes 2 -b 1M -e 1M 2>&1 >/dev/null)
e_bad=$("$ddpsim" collective --instance p4d.24xlarge --nodes 2 -e 1E 2>&1 >/dev/null)
[[ "$e_none" == *"$note"*"1.32x their price"*"ln sd 0.408"* && "$e_one" != *"$note"* && "$e_fit" != *"$note"* &&
   "$e_bad" != *"$note"* ]] && say ok "catalog-only network: its measured error said across nodes only" ||
  say fail "catalog-only network note: none [$e_none] one [$e_one] fitted [$e_fit] error [$e_bad]"
# ... and carries it as an interval in every format: the 0.408 is the sd of ln(measured / priced)
# over whole collectives, so each row's time x exp(-+1.2816 x 0.408) = x0.593-1.687; on one node the
# one-node price's own, x1.165 from 0.119 (round 4 session 29).
"$ddpsim" collective --instance p4de.24xlarge --nodes 2 -b 8 -e 1G -f 4 --profile none --format csv >"$tmp/band.csv" 2>/dev/null &&
  "$ddpsim" collective --instance p4de.24xlarge --nodes 1 -b 1M -e 1M --profile none --format csv >"$tmp/band1.csv" 2>/dev/null &&
  "$ddpsim" collective --instance p4de.24xlarge --nodes 2 -e 1M --profile none --format json >"$tmp/band.json" 2>/dev/null &&
  /usr/bin/python3 - "$tmp/band.csv" "$tmp/band1.csv" "$tmp/band.json" <<'PY' && say ok "catalog-only price: its interval in every format, one node its own" || say fail "collective interval: $(head -3 "$tmp/band.csv")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 14, len(rows)
for r in rows:
    t, lo, hi = float(r["time_us"]), float(r["time_us_p10"]), float(r["time_us_p90"])
    assert abs(hi / t - 1.687) < 0.002 and abs(t / lo - 1.687) < 0.002, r
one = next(csv.DictReader(open(sys.argv[2])))
assert abs(float(one["time_us_p90"]) / float(one["time_us"]) - 1.165) < 0.002, one
j = json.load(open(sys.argv[3]))
assert "0.408" in j["interval"] and all(r["time_us_p10"] < r["time_us"] < r["time_us_p90"] for r in j["rows"]), j
PY
"$ddpsim" collective --instance p4de.24xlarge --nodes 2 --profile none --compare "$data/p4de_2node_16gpu_allreduce_awsome.txt" \
  >"$tmp/band_cmp.txt" 2>/dev/null &&
  grep -Eq '^# Interval \(p10-p90\) .* [0-9]+ of [0-9]+ measured rows inside' "$tmp/band_cmp.txt" &&
  "$ddpsim" calibrate fit "$tmp/band_cmp.txt" --instance p4de.24xlarge --out "$tmp/band_fit.yaml" >/dev/null 2>&1 &&
  say ok "interval beside a log: measured rows inside counted; the table still reads back" ||
  say fail "interval beside a log: $(grep Interval "$tmp/band_cmp.txt")"
# A fitted profile's interval is its own residuals' spread on the nodes it saw; beyond them it grows
# by the measured drift per doubling, as the catalog's does beyond the 2 nodes its error was measured on.
i2=$("$ddpsim" collective --instance p5.48xlarge --nodes 2 -b 1G -e 1G 2>/dev/null | grep '^# Interval')
i8=$("$ddpsim" collective --instance p5.48xlarge --nodes 8 -b 1G -e 1G 2>/dev/null | grep '^# Interval')
i1=$("$ddpsim" collective --instance p5.48xlarge --nodes 1 -b 1G -e 1G 2>/dev/null | grep '^# Interval')
[[ "$i2" == *"multi-node residuals (2 nodes)" && "$i8" == *"2 doubling(s) beyond the 2 it was measured on"* &&
   "$i1" == *"held-out one-node residuals" ]] &&
  say ok "fitted profile: its residuals' interval, widened beyond its nodes; on one node its one-node residuals'" ||
  say fail "fitted profile interval: [$i2] [$i8] [$i1]"
for n in 2 4 8 32; do
  "$ddpsim" collective --instance p5.48xlarge --nodes $n -b 1G -e 1G --format csv >"$tmp/fit$n.csv" 2>/dev/null
  "$ddpsim" collective --instance p5.48xlarge --nodes $n -b 1G -e 1G --format csv --profile none >"$tmp/cat$n.csv" 2>/dev/null
done
drift=$(sed -n 's/.*+ (\([0-9.]*\) x .*/\1/p' <<<"$i8")
/usr/bin/python3 - "$tmp" "$drift" <<'PY' && say ok "intervals beyond the measured nodes: sd^2 + (drift x doublings)^2, fitted and catalog alike" || say fail "drift: $drift"
import csv, math, sys
z = 1.2815515655446004  # the normal's 90th percentile
def sd(path):
    r = next(csv.DictReader(open(path)))
    return math.log(float(r["time_us_p90"]) / float(r["time_us"])) / z
s = float(sys.argv[2])
assert 0.1 < s < 0.5, s
for kind, base in (("fit", sd(f"{sys.argv[1]}/fit2.csv")), ("cat", sd(f"{sys.argv[1]}/cat2.csv"))):
    for n, d in ((4, 1), (8, 2), (32, 4)):
        got, want = sd(f"{sys.argv[1]}/{kind}{n}.csv"), math.hypot(base, s * d)
        assert abs(got - want) < 2e-3, (kind, n, got, want)
PY
# The interval's claim, through the command: over the project's two-node logs priced by the catalog
# alone, about 80 % of the measured rows lie inside p10-p90 (85 of 104 when written; 96 of 125 since round 4
# session 27 added the 2019 p3dn log without AWS's plugin patch, 7 of its 21 inside; docs/validation.md).
inside=0 total=0
# instance:log[:option], the option as validation/collectives/logs.csv gives it (the p3dn logs ran rings only).
for pair in p4de.24xlarge:p4de_2node_16gpu_allreduce_awsome.txt p5.48xlarge:p5_2node_16gpu_allreduce_awsome.txt \
  p5.48xlarge:p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv p5.48xlarge:p5_2node_16gpu_allreduce_awsome_eks_nccl2.18.5_partial.txt \
  p3dn.24xlarge:p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt:--algorithm=ring \
  p3dn.24xlarge:p3dn_2node_16gpu_allreduce_efa_nccl2.4.6_ring_cybertronai.txt:--algorithm=ring; do
  IFS=: read -r inst log opt <<<"$pair"
  # shellcheck disable=SC2086
  counts=$("$ddpsim" collective --instance "$inst" --nodes 2 --profile none ${opt:-} --compare "$data/$log" 2>/dev/null |
    sed -n 's/.*; \([0-9]*\) of \([0-9]*\) measured rows inside.*/\1 \2/p')
  read -r k n <<<"$counts"
  inside=$((inside + ${k:-0})) total=$((total + ${n:-0}))
done
[ "$total" = 125 ] && [ $((100 * inside / total)) -ge 75 ] &&
  say ok "catalog-only interval holds $inside of $total measured two-node rows" ||
  say fail "catalog-only interval holds $inside of $total measured two-node rows (want >= 75 % of 125)"
# Held out from the 0.475 of the time (round 4 session 20): the figures quoted in issue threads, the p3dn
# ones 9 of 10 inside p10-p90 when written (docs/validation.md); since round 4 session 29 also p4d's at
# 2-4 nodes (NVIDIA/nccl #527; its 3- and 4-node rows are among those that measure the drift): 12 of 13.
# Each row's measured time is the predicted one scaled by predicted / measured busbw.
quoted="$data/../../validation/aws/quoted_points.csv"
held=$(grep -v '^#' "$quoted" | tail -n +2 | while IFS=, read -r _ _ inst nodes bytes meas rest; do
  args=${rest//\"/}
  # shellcheck disable=SC2086
  "$ddpsim" collective --instance "$inst" --nodes "$nodes" --profile none -b "$bytes" -e "$bytes" --format csv $args 2>/dev/null |
    python3 -c 'import csv, sys
r = next(csv.DictReader(sys.stdin)); m = float(r["time_us"]) * float(r["busbw_GBps"]) * 8 / float(sys.argv[1])
print(int(float(r["time_us_p10"]) <= m <= float(r["time_us_p90"])))' "$meas"
done | awk '{k += $1; n++} END {print k + 0, n + 0}')
read -r k n <<<"$held"
[ "$n" = 13 ] && [ "$k" -ge 10 ] && say ok "quoted points: $k of $n inside the catalog-only interval" ||
  say fail "quoted points: $k of $n inside (want >= 10 of 13)"
# Round 4 session 29: on one node the catalog's price carries its own measured error (0.119, the 59
# one-node rows): most of the p5 one-node log's rows lie inside.
"$ddpsim" collective --instance p5.48xlarge --nodes 1 --profile none --compare "$data/p5_1node_8gpu_allreduce_awsbatch.txt" 2>/dev/null |
  grep -Eq '^# Interval .*0\.119.* (2[4-9]|3[0-2]) of 32 measured rows inside' &&
  say ok "one node on the catalog's price: its measured band holds most of the p5 one-node log" ||
  say fail "one-node catalog band on the p5 log"
# Round 4 session 29: a profile whose multi-node rows start at 32 MiB (the HyperPod CSV; case A of
# docs/validation.md) did not fit its latency; below 32 MiB the catalog's latency prices the
# collective and the band is the catalog price's (x1.92 at p90 on 2 nodes), from 32 MiB its own.
"$ddpsim" calibrate fit "$data/p5_1node_8gpu_allreduce_awsbatch.txt" "$data/p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv" \
  --instance p5.48xlarge --output "$tmp/caseA.yaml" 2>"$tmp/caseA.err" >/dev/null
grep -q "across nodes: predictions carry time x exp(N(0, 0.048^2)) from 9 held-out residuals" "$tmp/caseA.err" &&
  grep -q "start at 32.00 MiB (none below 1 MiB): the latency was not fitted" "$tmp/caseA.err" &&
  say ok "calibrate fit says the bands its profile will carry, and where its latency was not fitted" ||
  say fail "calibrate fit summary: $(cat "$tmp/caseA.err")"
"$ddpsim" collective --instance p5.48xlarge --nodes 2 --profile "$tmp/caseA.yaml" --compare "$data/p5_2node_16gpu_allreduce_awsome.txt" \
  --format csv 2>/dev/null | python3 -c 'import csv, math, sys
rows = list(csv.DictReader(sys.stdin))
cat = math.exp(1.2815516 * 0.408)
small = [float(r["time_us_p90"]) / float(r["time_us"]) for r in rows if int(r["bytes"]) < 32 << 20]
big = [float(r["time_us_p90"]) / float(r["time_us"]) for r in rows if int(r["bytes"]) >= 32 << 20]
assert len(small) == 22 and all(abs(f / cat - 1) < 1e-3 for f in small), small
assert len(big) == 10 and all(1 < f < 1.2 for f in big), big
inside = sum(float(r["time_us_p10"]) <= float(r["measured_time_us"]) <= float(r["time_us_p90"]) for r in rows)
assert inside >= 28, inside' && say ok "a profile fitted from 32 MiB carries the catalog band below it (case A: most awsome rows inside)" ||
  say fail "case A band below the fitted sizes"
check explain_compare 2 "excludes" "$ddpsim" collective --instance p5.48xlarge --nodes 2 --explain --compare "$g8"

# Round 4 session 30: what a log's NCCL INFO lines say it ran is priced. Each case inserts one line
# into the p4de log and compares its 2 GB row with the plain log's (catalog price): the ratio's
# bounds, and the note that says so.
p4de="$data/p4de_2node_16gpu_allreduce_awsome.txt"
largest() { # LOG: the largest row's "bytes,time_us"; stderr to $tmp/largest.err
  "$ddpsim" collective --instance p4de.24xlarge --nodes 2 --profile none --compare "$1" --format csv 2>"$tmp/largest.err" |
    tail -1 | cut -d, -f1,2
}
base=$(largest "$p4de")
info_case() { # NAME LINE NOTE LOW HIGH
  { head -9 "$p4de"; echo "ip-10-1-2-3:416481:416522 [3] NCCL INFO $2"; tail -n +10 "$p4de"; } >"$tmp/$1.txt"
  local got
  got=$(largest "$tmp/$1.txt")
  grep -q "$3" "$tmp/largest.err" && python3 -c 'import sys; a, b = sys.argv[1].split(","), sys.argv[2].split(",")
sys.exit(not (a[0] == b[0] and float(sys.argv[3]) < float(b[1]) / float(a[1]) < float(sys.argv[4])))' "$base" "$got" "$4" "$5" &&
    say ok "a log that says \"$2\" is priced so, and said so" || say fail "$1: $base -> $got: $(cat "$tmp/largest.err")"
}
# 6 channels on p4de's 4 NICs: two NICs carry two, a third more time.
info_case channels "6 coll channels, 8 p2p channels, 2 p2p channels per peer" "says NCCL ran 6 coll channels" 1.25 1.42
# NCCL's sockets on an EFA instance: EFA unused.
info_case sockets "Using network Socket" "ran NCCL's socket transport" 1.1 100
# EFA connections without /GDRDMA: through host memory (p4de's PCIe Gen4 uplinks carry the staging
# nearly at the NICs' rate: +2.6 % at 2 GB).
info_case nogdr "Channel 00 : 7[a01c0] -> 8[101c0] [send] via NET/AWS Libfabric/3" "lack /GDRDMA" 1.01 1.2
# The log's environment (NCCL_TREE_THRESHOLD=0: rings only) decides what --compare prices, as it
# does for calibrate fit, unless --algorithm names another.
"$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --profile none --format csv \
  --compare "$data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt" 2>"$tmp/env.err" | tail -n +2 | cut -d, -f5 | sort -u >"$tmp/env.algos"
"$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --profile none --format csv --algorithm tree \
  --compare "$data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt" 2>/dev/null | tail -n +2 | cut -d, -f5 | sort -u >"$tmp/env_named.algos"
[ "$(cat "$tmp/env.algos")" = ring ] && [ "$(cat "$tmp/env_named.algos")" = tree ] &&
  grep -q "priced with the choice its environment implies: tuner nccl, algorithm ring" "$tmp/env.err" &&
  say ok "--compare prices a log with the choice its environment implies, unless --algorithm names one" ||
  say fail "compare's log choice: $(cat "$tmp/env.algos" "$tmp/env_named.algos" "$tmp/env.err")"

# Bad logs: exit 2, one line, existing output untouched.
echo precious >"$tmp/out.yaml"
head -20 "$data/p5_1node_8gpu_allreduce_awsbatch.txt" >"$tmp/trunc.txt"
printf '%s\n' '[1,0]<stdout>:     1048576        262144     float     sum      -1    28.56' >>"$tmp/trunc.txt"
check truncated 2 "$tmp/trunc.txt:21:" "$ddpsim" calibrate fit "$tmp/trunc.txt" --instance p5.48xlarge --out "$tmp/out.yaml"
printf '# nothing\n' >"$tmp/empty.txt"
check no_rows 2 "no nccl-tests result rows" "$ddpsim" calibrate fit "$tmp/empty.txt" --instance p5.48xlarge --out "$tmp/out.yaml"
printf 'Nodes,GPUs,size(MB)\n2,16,32\n' >"$tmp/cols.csv"
check wrong_columns 2 "no column" "$ddpsim" calibrate fit "$tmp/cols.csv" --instance p5.48xlarge --out "$tmp/out.yaml"
check two_tables 2 "sizes must increase" "$ddpsim" calibrate fit \
  "$data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_awsdocs_dlami.txt" --instance p3dn.24xlarge --out "$tmp/out.yaml"
check unknown_instance 2 "did you mean" "$ddpsim" calibrate fit "$data/p5_2node_16gpu_allreduce_awsome.txt" \
  --instance p5.48xlarg --out "$tmp/x.yaml"
check bad_profile 2 "$tmp/empty.txt" "$ddpsim" collective --instance p5.48xlarge --profile "$tmp/empty.txt"
check profile_instance 2 "profile is for" "$ddpsim" collective --instance p4de.24xlarge --profile "$tmp/self.yaml"
check nvls_on_a100 2 "not available" "$ddpsim" collective --instance p4de.24xlarge --algo nvls
[ "$(cat "$tmp/out.yaml")" = precious ] && say ok "failed fits keep the existing output" || say fail "output touched"
exit $fail
