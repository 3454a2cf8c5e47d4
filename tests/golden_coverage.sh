#!/usr/bin/env bash
# Every example scenario has a golden file and a golden test: examples cannot rot.
set -u
root=$1; fail=0
for f in "$root"/scenarios/*.yaml; do
  name=$(basename "$f" .yaml)
  [ -f "$root/tests/golden/$name.json" ] || { echo "FAIL: $name has no tests/golden/$name.json"; fail=1; }
  grep -qE "^\s+$name\s*$" "$root/tests/CMakeLists.txt" || { echo "FAIL: $name is not listed in tests/CMakeLists.txt"; fail=1; }
done
[ $fail = 0 ] && echo "ok: every scenario has a golden test"
exit $fail
