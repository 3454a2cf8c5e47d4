#!/usr/bin/env bash
# `ddpsim calibrate export PROFILE --nccl-tuner FILE.csv` (issue 20): the file is read by
# tests/cli/nccl_tuner_conf.py, which mirrors NVIDIA/nccl plugins/tuner/example/plugin.c (strict:
# whatever the plugin would ignore or silently re-read is an error). Then, independently of the
# export's code, the choices are re-derived through `ddpsim collective`: NCCL's default per size
# from the catalog (--profile none), every NCCL algorithm x protocol timed with the profile; at
# every size the plugin's first matching row must be the fastest choice exactly where it beats
# the default by 1% or more, and no row may match anywhere else.
set -u
ddpsim=$1 root=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
profile=$root/profiles/p5.48xlarge.yaml

# The parser itself: NVIDIA's example lines parse; the silent failures are caught.
printf '%s\n' '# comment' 'allreduce,0,65536,tree,simple,2,1,-1,-1,1' 'allreduce,65537,1048576,ring,simple,4,4,32' \
  >"$tmp/good.csv"
printf '%s\n' ' # not a comment to plugin.c' 'allreduce,0,65536,Tree,simple,2,1,-1' 'allgather,0,,ring,simple,-1,1,-1' \
  "allreduce,0,1,ring,simple,-1,1,-1,-1,-1,$(printf 'x%.0s' {1..300})" >"$tmp/bad.csv"
python3 "$here/nccl_tuner_conf.py" "$tmp/good.csv" >/dev/null && say ok "parser: NVIDIA's example lines parse" ||
  say fail "parser rejects NVIDIA's example lines"
n=$(python3 "$here/nccl_tuner_conf.py" "$tmp/bad.csv" | grep -c PROBLEM)
[ "$n" -ge 4 ] && say ok "parser: $n silent failures of plugin.c caught" || say fail "parser caught only $n problems"

# The shipped p5 profile (fitted network efficiency about 1: NCCL's own ranking stands, so few or no
# rows), and the same profile on a network reaching 30% of line rate (bandwidth 3.3x dearer: the
# protocol and algorithm switch points move, so rows must appear).
sed '/^network:/,/^[a-z]/ s/^  efficiency: .*$/  efficiency: 0.3000/' "$profile" >"$tmp/slow.yaml"
grep -q '^  efficiency: 0.3000$' "$tmp/slow.yaml" || say fail "could not derive the slow profile"
for prof in "$profile" "$tmp/slow.yaml"; do
  name=$(basename "$prof")
  "$ddpsim" calibrate export "$prof" --nccl-tuner "$tmp/tuner.csv" --nodes 1,2,4 >"$tmp/out" 2>&1 &&
    say ok "$name: calibrate export wrote $(grep -vc '^#' "$tmp/tuner.csv") rows" || { say fail "export failed: $(cat "$tmp/out")"; exit 1; }
  python3 "$here/nccl_tuner_conf.py" "$tmp/tuner.csv" >"$tmp/parsed" && say ok "every line reads as plugin.c reads it" ||
    say fail "plugin.c would misread: $(grep PROBLEM "$tmp/parsed" | head -3)"

  # ddpsim's names for the plugin's.
  for nodes in 1 2 4; do
    "$ddpsim" collective --instance p5.48xlarge --nodes $nodes --profile none --format csv -b 8 -e 8G >"$tmp/default.$nodes.csv"
    for a in ring tree nvls; do
      for p in LL LL128 Simple; do
        "$ddpsim" collective --instance p5.48xlarge --nodes $nodes --profile "$prof" --algorithm $a --proto $p --format csv \
          -b 8 -e 8G >"$tmp/t.$nodes.$a.$p.csv" 2>/dev/null || rm -f "$tmp/t.$nodes.$a.$p.csv"
      done
    done
  done
  python3 - "$here" "$tmp" <<'PY' && say ok "rows == where the fitted fastest choice beats NCCL's default by >= 1% (1, 2, 4 nodes, 8 B-8 GiB)" || say fail "rows disagree with the re-derived choices"
import csv, glob, os, sys
sys.path.insert(0, sys.argv[1])
import nccl_tuner_conf as conf
tmp = sys.argv[2]
configs, problems = conf.parse(os.path.join(tmp, "tuner.csv"))
assert not problems, problems
to_plugin_algo = lambda a, n: {"ring": "ring", "tree": "tree", "nvls": "nvls_tree" if n > 1 else "nvls"}[a]
for c in configs:
    assert c["collective"] == "allreduce" and c["channels"] == -1 and c["numPipeOps"] == -1 and c["regBuff"] == -1, c
    assert c["nNodes"] in (1, 2, 4) and c["nRanks"] == 8 * c["nNodes"], c
bad = 0
for n in (1, 2, 4):
    dflt = {int(r["bytes"]): (r["algorithm"], r["protocol"]) for r in csv.DictReader(open("%s/default.%d.csv" % (tmp, n)))}
    timed = {}
    for f in glob.glob("%s/t.%d.*.csv" % (tmp, n)):
        _, _, a, p, _ = os.path.basename(f).split(".")
        for r in csv.DictReader(open(f)):
            if r["algorithm"] == a and r["protocol"] == p:
                timed[(int(r["bytes"]), a, p)] = float(r["time_us"])
    for size, (da, dp) in sorted(dflt.items()):
        choices = {(a, p): t for (s, a, p), t in timed.items() if s == size}
        if (da, dp) not in choices:
            continue
        (ba, bp), bt = min(choices.items(), key=lambda kv: kv[1])
        want = (to_plugin_algo(ba, n), bp.lower()) if bt <= choices[(da, dp)] * 0.99 and (ba, bp) != (da, dp) else None
        got = conf.lookup(configs, "allreduce", size, n, 8 * n)
        got = (got["algorithm"], got["protocol"]) if got else None
        if got != want:
            bad += 1
            print("  %d nodes, %d B: plugin picks %s, re-derived %s (default %s/%s %.1f us, best %s/%s %.1f us)"
                  % (n, size, got, want, da, dp, choices[(da, dp)], ba, bp, bt))
sys.exit(1 if bad else 0)
PY

  [ "$prof" = "$profile" ] || [ "$(grep -vc '^#' "$tmp/tuner.csv")" -gt 0 ] && say ok "$name: rows written where expected" ||
    say fail "$name: no rows for a network at 30% of line rate"
done
exit $fail
