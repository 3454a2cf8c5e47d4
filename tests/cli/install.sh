#!/usr/bin/env bash
# `cmake --install` into a temporary prefix: the binary, profiles, examples and schema land where
# the README says, and the installed binary runs an installed example (with its relative job
# profile) and gives the same report as the build tree's binary.
set -u
. "$(dirname "$0")/lib.sh"
build=$(realpath "$1") built_ddpsim=$(realpath "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
timeout 120 cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 &&
  say ok "cmake --install" || { say fail "cmake --install: $(tail -3 "$tmp/install.log")"; exit 1; }
share=$tmp/prefix/share/ddpsim
for f in bin/ddpsim share/ddpsim/profiles/p5.48xlarge.yaml share/ddpsim/scenarios/p3_8node.yaml \
         share/ddpsim/scenarios/jobs/p3_8node_fitted.yaml share/ddpsim/scenarios/plans/gpt2xl.yaml \
         share/ddpsim/scenario.schema.json share/ddpsim/scenario.md; do
  [ -f "$tmp/prefix/$f" ] && say ok "installed $f" || say fail "missing $f"
done
# Issue 20: every docs/*.md that the binary's --help cites is installed under share/ddpsim/docs.
for f in $( { "$built_ddpsim" --help; for c in scenario collective calibrate plan merge expect; do "$built_ddpsim" $c --help; done; } 2>&1 |
           grep -o 'docs/[a-z_]*\.md' | sort -u); do
  [ -f "$share/$f" ] && say ok "--help cites $f: installed" || say fail "--help cites $f: not installed"
done
[ -x "$tmp/prefix/bin/ddpsim" ] && say ok "binary executable" || say fail "binary not executable"
# Run from elsewhere so nothing resolves against the source tree.
cd "$tmp"
timeout 60 "$tmp/prefix/bin/ddpsim" scenario "$share/scenarios/p3_8node_fitted.yaml" --format json \
  --samples 0 >"$tmp/installed.json" && say ok "installed binary runs installed example" ||
  say fail "installed binary on installed example"
timeout 60 "$built_ddpsim" scenario "$share/scenarios/p3_8node_fitted.yaml" --format json --samples 0 >"$tmp/built.json"
cmp -s "$tmp/installed.json" "$tmp/built.json" && grep -q '"results"' "$tmp/installed.json" &&
  say ok "same report as the build tree" || say fail "installed report differs"
exit $fail
