#!/usr/bin/env bash
# Approves the current output of every example scenario (or the ones named) as the new golden.
# Usage: tests/approve.sh [BUILD_DIR] [scenario names...]. Review `git diff tests/golden` after.
# A scenario with tests/golden/NAME.flow.json also gets its flow-engine golden re-approved; to
# create one, run with APPROVE_FLOW=NAME.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}; shift || true
ddpsim=$build/app/ddpsim
[ -x "$ddpsim" ] || { echo "build first: $ddpsim not found"; exit 1; }
names=("$@")
all=$([ ${#names[@]} -eq 0 ] && echo 1 || echo 0)
[ ${#names[@]} -gt 0 ] || names=($(cd "$root/scenarios" && ls *.yaml | sed 's/\.yaml$//'))
for n in "${names[@]}"; do
  case $n in shared_fabric/*) continue ;; esac  # below
  "$ddpsim" scenario "$root/scenarios/$n.yaml" --format json >"$root/tests/golden/$n.json.tmp"
  mv "$root/tests/golden/$n.json.tmp" "$root/tests/golden/$n.json"
  echo "approved tests/golden/$n.json"
  # Flow-engine goldens exist for the scenarios listed in tests/CMakeLists.txt's second foreach.
  if [ -f "$root/tests/golden/$n.flow.json" ] || [ "${APPROVE_FLOW:-}" = "$n" ]; then
    "$ddpsim" scenario "$root/scenarios/$n.yaml" --format json --engine flow >"$root/tests/golden/$n.flow.json.tmp"
    mv "$root/tests/golden/$n.flow.json.tmp" "$root/tests/golden/$n.flow.json"
    echo "approved tests/golden/$n.flow.json"
  fi
done
# Several jobs on one fabric (scenarios/shared_fabric/, each with engine: flow); approved with the others
# when no names are given, or by name as shared_fabric/NAME.
for f in "$root"/scenarios/shared_fabric/*.yaml; do
  n=shared_fabric/$(basename "$f" .yaml)
  if [ "$all" = 0 ] && ! printf '%s\n' "${names[@]}" | grep -qx "$n"; then continue; fi
  mkdir -p "$root/tests/golden/shared_fabric"
  "$ddpsim" scenario "$f" --format json >"$root/tests/golden/$n.json.tmp"
  mv "$root/tests/golden/$n.json.tmp" "$root/tests/golden/$n.json"
  echo "approved tests/golden/$n.json"
done
