#!/usr/bin/env bash
# The one-node loss across precisions (docs/validation.md "The one-node loss across precisions"):
# on NVIDIA's ResNet-50 and BERT tables (validation/training: DLE-PT-RN50, DLE-TF-RN50, DLE-PT-BERT,
# DLE-PD-BERT; one GPU and a full DGX-1 or DGX A100 node, at two precisions each; one jobs source
# per model and knob form in scripts/validate.sh), fit the one-node knob on one precision's
# two rows with `ddpsim calibrate job --fit compute_scale KNOB`, then predict the other precision's
# full node from its own one-GPU row (`--fit compute_scale` on that row alone) with the knob
# carried over as a scenario key. Both forms of the knob are run: node_slowdown (a factor on
# compute) and node_step_cost (a cost per optimizer step). Error = predicted / measured full-node
# throughput - 1 (positive = too optimistic), i.e. the error of the scaling efficiency in percent.
# Needs only bash, python3 (stdlib) and the ddpsim binary.
#
# usage: scripts/validate_node_loss.sh [--ddpsim PATH] [--tsv]
#   --tsv  print `jobs <TAB> source <TAB> error` lines (scripts/validate.sh) instead of the table
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ddpsim="$root/build/release/app/ddpsim"
tsv=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ddpsim) ddpsim="$2"; shift 2 ;;
    --tsv) tsv=1; shift ;;
    *) echo "usage: $0 [--ddpsim PATH] [--tsv]" >&2; exit 2 ;;
  esac
done
[[ -x "$ddpsim" ]] || { echo "$0: error: ddpsim not found at $ddpsim (build first or pass --ddpsim)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$ddpsim" "$root/validation/training" "$work" "$tsv" <<'PY'
import concurrent.futures, csv, os, re, subprocess, sys

ddpsim, data, work, tsv = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
rows = {r["id"]: r for r in csv.DictReader(l for l in open(f"{data}/measurements.csv") if not l.startswith("#"))}
# (series, precision) -> case id prefix; a series is one framework on one kind of node.
# model -> series name -> (case id prefix at one precision, at the other)
series = {"RN50": {"DLE-PT-RN50 dgx-a100": ("ptrn50_tf32", "ptrn50_fp16"), "DLE-PT-RN50 dgx1-v100": ("ptrn50v_fp32", "ptrn50v_fp16"),
                   "DLE-TF-RN50 dgx-a100": ("tfrn50_tf32", "tfrn50_fp16"), "DLE-TF-RN50 dgx1-v100": ("tfrn50v_fp32", "tfrn50v_fp16")},
          "BERT": {"DLE-PT-BERT s128 dgx-a100": ("ptbert1_s128_tf32", "ptbert1_s128_fp16"),
                   "DLE-PT-BERT s512 dgx-a100": ("ptbert1_s512_tf32", "ptbert1_s512_fp16"),
                   "DLE-PT-BERT s128 dgx1-v100": ("ptbert1v_s128_fp32", "ptbert1v_s128_fp16"),
                   "DLE-PT-BERT s512 dgx1-v100": ("ptbert1v_s512_fp32", "ptbert1v_s512_fp16"),
                   "DLE-PD-BERT s128 dgx-a100": ("pdbert1_s128_tf32", "pdbert1_s128_fp16"),
                   "DLE-PD-BERT s512 dgx-a100": ("pdbert1_s512_tf32", "pdbert1_s512_fp16")}}


def run(*args, refusal=None):
    """ddpsim's stdout; None where it refused with `refusal` in its message (a fit it cannot make)."""
    p = subprocess.run([ddpsim, *args], capture_output=True, text=True)
    if p.returncode != 0:
        if refusal and refusal in p.stderr:
            return None
        sys.exit(f"validate_node_loss: ddpsim {' '.join(args)} failed: {p.stderr.strip()}")
    return p.stdout


def job_file(case, name, with_full_node_row, extra=""):
    """The case's full-node scenario as a 1-GPU + full-node series with its observed rows."""
    text = open(f"{data}/cases/{case}_n1x8.yaml").read()
    if re.search(r"^(observed|compute|overheads):", text, re.M):
        sys.exit(f"validate_node_loss: {case}_n1x8.yaml already has a section this script writes")
    text = text.replace("  nodes: [1]\n  gpus_per_node: [8]\n", "  nodes: [1, 1]\n  gpus_per_node: [1, 8]\n")
    m1, m8 = rows[f"{case}_n1x1"]["measured"], rows[f"{case}_n1x8"]["measured"]
    text += f"observed:\n  source: validation/training/measurements.csv\n  rows:\n"
    text += f"    - {{nodes: 1, gpus_per_node: 1, samples_per_s: {m1}}}\n"
    if with_full_node_row:
        text += f"    - {{nodes: 1, gpus_per_node: 8, samples_per_s: {m8}}}\n"
    path = f"{work}/{name}.yaml"
    open(path, "w").write(text + extra)
    return path


def fitted(out, knob):
    m = re.search(rf"^{knob}\s+\S+(?: ms| us)?\s+([0-9.e+-]+)( ms| us)?\s", out, re.M)
    if not m:
        sys.exit(f"validate_node_loss: no fitted {knob} in:\n{out}")
    return float(m.group(1)) * {" ms": 1e-3, " us": 1e-6, None: 1}[m.group(2)]


def key(knob, v):
    return f"compute:\n  node_slowdown: {v:.6g}\n" if knob == "node_slowdown" else f"overheads:\n  node_step_cost: {v:.6g}s\n"


def predict(model, name, fit_case, pred_case, knob):
    """(model, series, fitted on, predicted, knob, value, measured eff, predicted eff, error %)"""
    a = job_file(fit_case, f"{fit_case}_{knob}_fit", True)
    # Where the model already charges more than the node lost (the BERT nodes), a cost per step
    # cannot be fitted (calibrate job refuses: it would be negative); a user then has none to
    # carry, and the prediction is the model's.
    out = run("calibrate", "job", a, "--fit", "compute_scale", knob, "-o", f"{work}/{fit_case}_{knob}_fit.job.yaml",
              refusal="to the lower end of its search")
    v = fitted(out, knob) if out is not None else 0.0
    b = job_file(pred_case, f"{pred_case}_{knob}_pred", False, key(knob, v))
    run("calibrate", "job", b, "--fit", "compute_scale", "-o", f"{b}.job.yaml")
    open(b, "a").write(f"calibration: {b}.job.yaml\n")
    out = list(csv.DictReader(run("scenario", b, "--samples", "0", "--format", "csv").splitlines()))
    p1, p8 = (float(r["samples_per_s"]) for r in out)
    m1, m8 = float(rows[f"{pred_case}_n1x1"]["measured"]), float(rows[f"{pred_case}_n1x8"]["measured"])
    me, pe = m8 / 8 / m1, p8 / 8 / p1
    return (model, name, fit_case.split("_")[-1], pred_case.split("_")[-1], knob, v, me, pe, 100 * (pe / me - 1))


tasks = [(m, n, f, p, k) for m, s in series.items() for n, (a, b) in s.items() for f, p in ((a, b), (b, a))
         for k in ("node_slowdown", "node_step_cost")]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # each task its own files
    results = list(pool.map(lambda t: predict(*t), tasks))  # in the tasks' order: the output is deterministic

if tsv:
    for r in results:
        print(f"jobs\tDLE-{r[0]} one-node loss across precisions ({r[4]})\t{r[8]:.4f}")
    sys.exit(0)
print("| series | fitted on | predicted | knob | fitted value | measured efficiency | predicted | error |")
print("|---|---|---|---|---|---|---|---|")
for _, s, f, p, k, v, me, pe, e in results:
    value = (f"{v * 1e3:.1f} ms" if v > 0 else "refused (none)") if k == "node_step_cost" else f"{v:.3f}"
    print(f"| {s} | {f} | {p} | `{k}` | {value} | {100 * me:.1f}% | {100 * pe:.1f}% | {e:+.1f}% |")
print()
for m in series:
    for k in ("node_slowdown", "node_step_cost"):
        errs = sorted(abs(r[8]) for r in results if r[0] == m and r[4] == k)
        med = (errs[len(errs) // 2 - 1] + errs[len(errs) // 2]) / 2
        print(f"- {m}, `{k}`: {len(errs)} predictions, median |error| {med:.1f}%, max {max(errs):.1f}%")
PY
