#!/usr/bin/env bash
# `--jobs 2` (configurations in forked processes, results sent back through a pipe) must give
# byte-identical reports to a serial run, for every example scenario and both engines.
set -u
ddpsim=$1 scenarios=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for f in "$scenarios"/*.yaml; do
  for engine in analytical flow; do
    "$ddpsim" scenario "$f" --format json --engine $engine >"$tmp/serial.json" || { echo "FAIL $f: serial run failed"; fail=1; continue; }
    "$ddpsim" scenario "$f" --format json --engine $engine --jobs 2 >"$tmp/jobs.json" || { echo "FAIL $f: --jobs run failed"; fail=1; continue; }
    if cmp -s "$tmp/serial.json" "$tmp/jobs.json"; then echo "ok   $(basename "$f") $engine"; else echo "FAIL $(basename "$f") $engine: --jobs 2 differs from serial"; fail=1; fi
  done
done
exit $fail
