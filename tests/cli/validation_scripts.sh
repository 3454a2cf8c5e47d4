#!/usr/bin/env bash
# The validation scripts (scripts/validate_training.sh, scripts/validate_calibrate_job.sh) on one
# case each, so they keep working: a table row with a measured and a predicted number, the
# summary lines, and a located one-line error for a scenario whose global batch does not divide.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

timeout 120 bash "$root/scripts/validate_training.sh" --ddpsim "$ddpsim" --only '^ptbert_s128_fp16_n2x8$' >"$tmp/t.md" 2>&1 ||
  say fail "validate_training.sh exit: $(tail -3 "$tmp/t.md")"
# The selected row and its reference: two table rows, the second with an efficiency in (0, 150)%.
[ "$(grep -c '^| \[DLE-PT-BERT\]' "$tmp/t.md")" = 2 ] && say ok "training table: the row and its reference" ||
  say fail "training table rows: $(cat "$tmp/t.md")"
awk -F'|' '/2x8/ { e = $9 + 0; exit !(e > 0 && e < 150) }' "$tmp/t.md" && say ok "predicted efficiency is a percentage" ||
  say fail "predicted efficiency: $(grep 2x8 "$tmp/t.md")"
grep -q '^Scaling efficiency, 1 rows: median |error|' "$tmp/t.md" && grep -q '^\[DLE-PT-BERT\]: https://' "$tmp/t.md" &&
  say ok "summary and source link" || say fail "summary: $(tail -5 "$tmp/t.md")"

# --intervals: the same rows with default intervals, and a coverage line that counts both.
timeout 120 bash "$root/scripts/validate_training.sh" --ddpsim "$ddpsim" --only '^ptbert_s128_fp16_n2x8$' --intervals \
  >"$tmp/i.md" 2>&1 || say fail "validate_training.sh --intervals exit: $(tail -3 "$tmp/i.md")"
grep -qE '^- \(all\): [0-2] of 2 \([0-9]+ %\)$' "$tmp/i.md" && say ok "interval coverage line" ||
  say fail "interval coverage: $(tail -6 "$tmp/i.md")"

timeout 120 bash "$root/scripts/validate_calibrate_job.sh" --ddpsim "$ddpsim" --only '^ptbert_s128_fp16$' \
  --knobs "compute_scale step_overhead" --samples 4 >"$tmp/c.md" 2>&1 || say fail "validate_calibrate_job.sh exit: $(tail -3 "$tmp/c.md")"
grep -qE '^\| ptbert_s128_fp16 \| `compute_scale step_overhead` \| (compute_scale = .*; step_overhead = |refused: )' "$tmp/c.md" &&
  say ok "calibrate job table row" || say fail "calibrate job table: $(cat "$tmp/c.md")"

# training.global_batch that is not a whole number of micro-batches: one located line, exit 2.
sed 's/global_batch: 65536/global_batch: 65000/' "$root/validation/jobs/ptbert_s128_fp16.yaml" >"$tmp/bad.yaml"
check global_batch_indivisible 2 "bad.yaml:" "$ddpsim" scenario "$tmp/bad.yaml" --samples 0
exit $fail
