#!/usr/bin/env bash
# golden.sh DDPSIM SCENARIO GOLDEN [OPTIONS...]: the scenario's JSON report (with any extra
# `ddpsim scenario` OPTIONS, e.g. --engine flow) must match the approved one (numbers to a
# relative 1e-9, everything else exactly), and two runs must be byte-identical.
set -eu
ddpsim=$1 scenario=$2 golden=$3
shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# GOLDEN_COMMAND=plan checks `ddpsim plan` the same way (scenarios/plans/).
cmd=${GOLDEN_COMMAND:-scenario}
"$ddpsim" "$cmd" "$scenario" --format json "$@" >"$tmp/a.json"
"$ddpsim" "$cmd" "$scenario" --format json "$@" >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || { echo "FAIL: two runs differ (not deterministic)"; exit 1; }
[ -f "$golden" ] || { echo "FAIL: no golden $golden (run tests/approve.sh)"; exit 1; }
python3 - "$tmp/a.json" "$golden" <<'PY'
import json, math, sys
got, want = (json.load(open(p)) for p in sys.argv[1:3])
def diff(a, b, path="$"):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15):
            return f"{path}: got {a}, golden {b}"
        return None
    if type(a) != type(b):
        return f"{path}: got {type(a).__name__}, golden {type(b).__name__}"
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return f"{path}: keys differ: {sorted(set(a) ^ set(b))}"
        for k in a:
            d = diff(a[k], b[k], f"{path}.{k}")
            if d: return d
    elif isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs golden {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, f"{path}[{i}]")
            if d: return d
    elif a != b:
        return f"{path}: got {a!r}, golden {b!r}"
    return None
d = diff(got, want)
if d:
    print("FAIL:", d, "\n(if the change is intended: tests/approve.sh)")
    sys.exit(1)
print("ok: matches", sys.argv[2])
PY
