#!/usr/bin/env bash
# Issue 20: "Plan HTML: a label overlaps points". The plan page's time/cost chart is measured in
# headless Chromium (Debian `chromium`): every placed label (<text class="label">) gets its real
# bounding box (getBBox, the page's own fonts), and no label may meet another label, any other
# text (ticks, axis names, legend, title), any marker, ring or legend swatch (circle, polygon,
# rect), or leave the chart. Three plans: the HTML test's, the shipped GPT-2 XL plan and a crowded
# one (3 instances x 4 frameworks x 1-64 nodes). A control copy with one label moved onto a marker
# must be caught. Pages are byte-identical when run again. Without Chromium the test fails.
# usage: plan_labels.sh DDPSIM SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
ddpsim=$1 src=$2
command -v chromium >/dev/null || { echo "FAIL chromium is not installed: run scripts/setup.sh"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/crowd.yaml" <<'EOF'
name: crowd
cluster:
  instance: [p4d.24xlarge, p4de.24xlarge, p5.48xlarge]
  nodes: {from: 1, to: 64, by: x2}
model: {preset: gpt2-xl, seq_len: 1024}
training:
  framework: [pytorch-ddp, fsdp, zero-2, zero-3]
  batch_per_gpu: 4
  precision: bf16
  optimizer: adam
  samples: 2000000
goal: {deadline: 1h, budget: 300USD, minimize: cost}
EOF

# measure PAGE.html: wraps the page's first <svg> (the time/cost chart) with a script that writes
# one line per collision (or "labels N, collisions 0") into the DOM, and prints that line.
measure() {
  local page=$1 out=$2
  {
    printf '<!DOCTYPE html><html><head><meta charset="utf-8">'
    sed -n '/<style>/,/<\/style>/p' "$page"
    printf '</head><body>'
    awk '/<svg/{on=1} on{print} /<\/svg>/{if(on) exit}' "$page"
    cat <<'EOF'
<script>
const svg = document.querySelector('svg'), r = [];
const box = e => { const b = e.getBBox(); return {x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height}; };
const meet = (a, b) => a.x0 < b.x1 - 0.01 && b.x0 < a.x1 - 0.01 && a.y0 < b.y1 - 0.01 && b.y0 < a.y1 - 0.01;
const name = e => e.tagName + ' "' + (e.textContent || '').slice(0, 40) + '"';
const labels = [...svg.querySelectorAll('text.label')];
const others = [...svg.querySelectorAll('text:not(.label), circle, polygon, rect')];
const vb = svg.viewBox.baseVal;
labels.forEach((l, i) => {
  const a = box(l);
  if (a.x0 < 0 || a.y0 < 0 || a.x1 > vb.width || a.y1 > vb.height) r.push('outside: ' + name(l));
  labels.slice(i + 1).forEach(m => { if (meet(a, box(m))) r.push('label/label: ' + name(l) + ' / ' + name(m)); });
  others.forEach(o => { if (meet(a, box(o))) r.push('label/other: ' + name(l) + ' / ' + name(o)); });
});
const pre = document.createElement('pre');
pre.id = 'ddpsim-' + 'result';  // split, so that the dumped script does not match
pre.textContent = 'labels ' + labels.length + ', collisions ' + r.length + (r.length ? '\n' + r.join('\n') : '');
document.body.append(pre);
</script></body></html>
EOF
  } >"$tmp/measure.html"
  timeout 60 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
    --no-first-run --disable-extensions --dump-dom "file://$tmp/measure.html" 2>/dev/null |
    sed -n '/<pre id="ddpsim-result">/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$out"
}

for plan in "$src/tests/data/plan_html.yaml" "$src/scenarios/plans/gpt2xl.yaml" "$tmp/crowd.yaml"; do
  n=$(basename "$plan" .yaml)
  "$ddpsim" plan "$plan" --format html -o "$tmp/$n.html" || { say fail "$n: plan --format html exited $?"; continue; }
  "$ddpsim" plan "$plan" --format html >"$tmp/$n.again.html"
  cmp -s "$tmp/$n.html" "$tmp/$n.again.html" && say ok "$n: byte-identical rerun" || say fail "$n: page differs between runs"
  measure "$tmp/$n.html" "$tmp/$n.result"
  head -1 "$tmp/$n.result" | grep -qE '^labels [1-9][0-9]*, collisions 0$' \
    && say ok "$n: $(head -1 "$tmp/$n.result") (Chromium's boxes)" || { cat "$tmp/$n.result"; say fail "$n: labels collide (above)"; }
  grep -q 'class="label"[^>]*>x[0-9]* *recommended<' "$tmp/$n.html" && say ok "$n: the recommended point is labelled" \
    || say fail "$n: no label for the recommended point"
done

# Control: the first label moved onto the first marker's centre must be reported.
page=$tmp/plan_html.html
cx=$(grep -m1 -o '<circle cx="[0-9.]*" cy="[0-9.]*" r="[45]' "$page" | sed -E 's/.*cx="([0-9.]*)" cy="([0-9.]*)".*/\1 \2/')
set -- $cx
sed -E "0,/<text x=\"[0-9.]*\" y=\"[0-9.]*\"([^>]*class=\"label\")/s//<text x=\"$1\" y=\"$2\"\1/" "$page" >"$tmp/control.html"
measure "$tmp/control.html" "$tmp/control.result"
grep -q 'label/other' "$tmp/control.result" && say ok "control: a label moved onto a marker is caught" \
  || { cat "$tmp/control.result"; say fail "control: the moved label was not caught"; }
exit $fail
