#!/usr/bin/env bash
# flow_trace.sh DDPSIM SCENARIO: `ddpsim scenario --engine flow --jobs 2 --trace` runs, agrees with
# the analytical engine on an uncontended scenario (1e-6 relative), and writes a trace that parses
# as Chrome trace event JSON with named processes and threads.
set -eu
ddpsim=$1 scenario=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$ddpsim" scenario "$scenario" --format json --engine flow --jobs 2 --trace "$tmp/trace.json" >"$tmp/flow.json"
"$ddpsim" scenario "$scenario" --format json --engine analytical >"$tmp/analytical.json"
python3 - "$tmp/flow.json" "$tmp/analytical.json" "$tmp/trace.json" <<'PY'
import json, math, sys
flow, ana, trace = (json.load(open(p)) for p in sys.argv[1:4])
assert flow["engine"] == "flow" and ana["engine"] == "analytical"
for f, a in zip(flow["results"], ana["results"], strict=True):
    assert f["nodes"] == a["nodes"]
    assert f["simulated"] in ("symmetric", "per-rank"), f
    for k in ("step_time_s", "comm_s", "exposed_comm_s"):
        assert math.isclose(f[k], a[k], rel_tol=1e-6), (k, f[k], a[k])
ev = trace["traceEvents"]
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] in ("process_name", "thread_name")}
assert {"node 0", "gpu0 compute", "gpu0 comm"} <= names, names
assert any(e["ph"] == "X" and e["args"].get("algorithm") in ("ring", "tree", "nvls") and e["args"].get("protocol") for e in ev)
print("ok")
PY
