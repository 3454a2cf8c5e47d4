#!/usr/bin/env bash
# Approves the current output of every example scenario (or the ones named) as the new golden.
# Usage: tests/approve.sh [BUILD_DIR] [scenario names...]. Review `git diff tests/golden` after.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}; shift || true
ddpsim=$build/app/ddpsim
[ -x "$ddpsim" ] || { echo "build first: $ddpsim not found"; exit 1; }
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$root/scenarios" && ls *.yaml | sed 's/\.yaml$//'))
for n in "${names[@]}"; do
  "$ddpsim" scenario "$root/scenarios/$n.yaml" --format json >"$root/tests/golden/$n.json.tmp"
  mv "$root/tests/golden/$n.json.tmp" "$root/tests/golden/$n.json"
  echo "approved tests/golden/$n.json"
done
