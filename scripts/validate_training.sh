#!/usr/bin/env bash
# Training validation (docs/validation.md, "Training validation"): runs every case of
# validation/training/measurements.csv through `ddpsim scenario` and prints the markdown table
# (measured vs predicted throughput and scaling efficiency) with the median and max errors.
# Needs only bash, python3 (stdlib) and the ddpsim binary. Assumptions: validation/training/ASSUMPTIONS.md.
#
# usage: scripts/validate_training.sh [--ddpsim PATH] [--only REGEX] [--jobs N] [--dir DIR] [--intervals]
#   --only REGEX  keep the rows whose id matches (their reference rows are run too)
#   --intervals   run every case with ddpsim's default intervals and add how many measured
#                 throughputs lie inside the prediction's p10-p90, by source and by class
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ddpsim="$root/build/release/app/ddpsim"
dir="$root/validation/training"
only="."
jobs=1
samples="--samples 0"
intervals=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ddpsim) ddpsim="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --intervals) intervals=1; samples=""; shift ;;
    *) echo "usage: $0 [--ddpsim PATH] [--only REGEX] [--jobs N] [--dir DIR] [--intervals]" >&2; exit 2 ;;
  esac
done
[[ -x "$ddpsim" ]] || { echo "$0: error: ddpsim not found at $ddpsim (build first or pass --ddpsim)" >&2; exit 2; }
csv="$dir/measurements.csv"
[[ -f "$csv" ]] || { echo "$0: error: $csv: not found" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The ids to run: the selected rows and their references.
python3 - "$csv" "$only" > "$work/ids" <<'PY'
import csv, re, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
pick = {r["id"] for r in rows if re.search(sys.argv[2], r["id"])}
pick |= {r["ref"] for r in rows if r["id"] in pick and r["ref"]}
print("\n".join(r["id"] for r in rows if r["id"] in pick))
PY
[[ -s "$work/ids" ]] || { echo "$0: error: no row matches --only $only" >&2; exit 2; }

# One prediction per case: samples_per_s from the CSV report (column found by its header name).
run_case() {
  local id="$1" out
  # $samples unquoted on purpose: empty (default intervals) or "--samples 0".
  # shellcheck disable=SC2086
  out="$("$ddpsim" scenario "$dir/cases/$id.yaml" $samples --format csv)" || { echo "$id: ddpsim failed" >&2; return 1; }
  printf '%s\n' "$out" | awk -F, -v id="$id" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "samples_per_s") c = i
        if ($i == "samples_per_s_p10") lo = i; if ($i == "samples_per_s_p90") hi = i } }
    NR == 2 { if (!c) exit 1; print id, $c, (lo && $lo != "" ? $lo : "-"), (hi && $hi != "" ? $hi : "-") }' \
    > "$work/pred.$id" || { echo "$id: no samples_per_s" >&2; return 1; }
}
export -f run_case
export ddpsim dir work samples
xargs -P "$jobs" -I{} bash -c 'run_case "$1"' _ {} < "$work/ids"
cat "$work"/pred.* > "$work/pred"

python3 - "$csv" "$work/ids" "$work/pred" "$intervals" <<'PY'
import csv, statistics, sys
rows = {r["id"]: r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))}
ids = open(sys.argv[2]).read().split()
pred = dict((l.split()[0], float(l.split()[1])) for l in open(sys.argv[3]))
band = dict((l.split()[0], tuple(l.split()[2:4])) for l in open(sys.argv[3]))
inside = {}
def fmt(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"
print("| source | configuration | GPUs | measured | predicted | throughput error | measured efficiency | predicted efficiency | error (points) |")
print("|---|---|---|---|---|---|---|---|---|")
eff_err, thr_err, by_src, urls = [], [], {}, {}
for i in ids:
    r = rows[i]
    m, p, g = float(r["measured"]), pred[i], int(r["gpus"])
    te = 100.0 * (p / m - 1.0)
    thr_err.append(abs(te))
    lo, hi = band[i]
    if lo != "-" and hi != "-":
        cls = "1 GPU" if g == 1 else "one node" if g <= 8 else "2-32 nodes"
        for k in (r["source"], "(all) " + cls, "(all)"):
            inside.setdefault(k, []).append(float(lo) <= m <= float(hi))
    if r["ref"]:
        ref = rows[r["ref"]]
        gr = int(ref["gpus"])
        me = 100.0 * (m / g) / (float(ref["measured"]) / gr)
        pe = 100.0 * (p / g) / (pred[r["ref"]] / gr)
        eff_err.append(abs(pe - me))
        by_src.setdefault(r["source"], []).append(abs(pe - me))
        by_src.setdefault("(all) 8 GPUs, one node" if g <= 8 else "(all) 16-256 GPUs, 2-32 nodes", []).append(abs(pe - me))
        eff = f"{me:.1f}% | {pe:.1f}% | {pe - me:+.1f}"
    else:
        eff = "reference | | "
    urls[r["source"]] = r["url"]
    print(f"| [{r['source']}] | {r['configuration']} | {g} | {fmt(m)} {r['unit']} | {fmt(p)} | {te:+.1f}% | {eff} |")
print()
for s, u in sorted(urls.items()):
    print(f"[{s}]: {u}")
print()
if eff_err:
    print(f"Scaling efficiency, {len(eff_err)} rows: median |error| {statistics.median(eff_err):.1f} points, "
          f"max {max(eff_err):.1f} points.")
    for s, e in sorted(by_src.items()):
        print(f"- {s}: {len(e)} rows, median {statistics.median(e):.1f}, max {max(e):.1f} points")
print(f"Throughput, {len(thr_err)} rows: median |error| {statistics.median(thr_err):.1f}%, max {max(thr_err):.1f}%.")
if sys.argv[4] == "1":
    print("Measured throughput inside the default prediction's p10-p90:")
    for k, v in sorted(inside.items()):
        print(f"- {k}: {sum(v)} of {len(v)} ({100.0 * sum(v) / len(v):.0f} %)")
PY
