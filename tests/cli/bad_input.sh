#!/usr/bin/env bash
# Every file in DIR is a bad scenario. `ddpsim scenario` must exit 2 with exactly one line on
# stderr that starts with the file's path, contains the file's "# expect:" text, and shows no
# crash. Also: a missing file, a bad flag, and an output file that must survive a failed run.
set -u
dir=$1
ddpsim=${DDPSIM:?set DDPSIM to the binary}
fail=0
check() {  # name expected_rc expected_substring command...
  local name=$1 want_rc=$2 want=$3; shift 3
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  local lines; lines=$(printf '%s' "$err" | grep -c '')
  if [ "$rc" != "$want_rc" ] || [ "$lines" != 1 ] || [[ "$err" != *"$want"* ]] ||
     grep -qiE 'terminate|abort|segmentation|stack' <<<"$err"; then
    echo "FAIL $name: rc=$rc (want $want_rc), $lines stderr line(s): $err"; fail=1
  else
    echo "ok   $name: $err"
  fi
}
for f in "$dir"/*.yaml; do
  want=$(sed -n 's/^# expect: //p' "$f" | head -1)
  [ -n "$want" ] || want="the file is empty"
  check "$(basename "$f")" 2 "$f:" "$ddpsim" scenario "$f"
  check "$(basename "$f") message" 2 "$want" "$ddpsim" scenario "$f"
done
check missing_file 2 "cannot read the file" "$ddpsim" scenario "$dir/no_such_file.yaml"
check bad_format 2 "--format" "$ddpsim" scenario "$dir/empty.yaml" --format xml
check no_subcommand 2 "error" "$ddpsim"

# A failed run leaves an existing output file untouched.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo precious >"$tmp/out.json"
"$ddpsim" scenario "$dir/zero_nodes.yaml" --output "$tmp/out.json" 2>/dev/null
if [ "$(cat "$tmp/out.json")" != precious ] || [ "$(ls -A "$tmp" | wc -l)" != 1 ]; then
  echo "FAIL output file was touched by a failed run"; fail=1
else
  echo "ok   failed run keeps the existing output"
fi
exit $fail
