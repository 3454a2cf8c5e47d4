#!/usr/bin/env bash
# Every file in DIR is a bad scenario. `ddpsim scenario` must exit 2 with exactly one line on
# stderr that starts with the file's path, contains the file's "# expect:" text, and shows no
# crash. Also: a missing file, a bad flag, and an output file that must survive a failed run.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
ddpsim=${DDPSIM:?set DDPSIM to the binary}
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
  say fail "output file was touched by a failed run"
else
  echo "ok   failed run keeps the existing output"
fi
exit $fail
