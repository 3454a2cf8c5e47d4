#!/usr/bin/env bash
# `--format html` in a real browser: renders a scenario's and a plan's page in headless Chromium
# (Debian package `chromium`, installed by scripts/setup.sh), fails on any console message
# (script errors, Content-Security-Policy refusals of a fetch) and on a page whose inline script
# did not run, and keeps PNG screenshots as test artifacts. A control page with a console error
# proves the console check can fail. Without Chromium the test fails: it must not pass silently.
# usage: html_chromium.sh DDPSIM SCENARIO PLAN ARTIFACT_DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
ddpsim=$1 scenario=$2 plan=$3 art=$4
if ! command -v chromium >/dev/null; then
  echo "FAIL chromium is not installed: run scripts/setup.sh (Debian package chromium)"
  exit 1
fi
mkdir -p "$art"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# browse MODE FILE [OUT.png]: MODE dom prints the DOM after load; shot writes OUT.png. Chromium's
# stderr (with --enable-logging) carries the page's console as "CONSOLE" lines.
browse() {
  local mode=$1 file=$2 png=${3:-}
  local args=(--headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --hide-scrollbars
              --user-data-dir="$tmp/profile-$mode" --no-first-run --disable-extensions)
  if [ "$mode" = dom ]; then
    timeout 60 chromium "${args[@]}" --dump-dom "file://$file" 2>"$tmp/stderr" >"$tmp/dom"
  else
    timeout 60 chromium "${args[@]}" --screenshot="$png" --window-size=1280,"${HEIGHT:-2000}" "file://$file" \
      2>"$tmp/stderr" >/dev/null
  fi
}

# page NAME FILE: loads, runs its marker script, logs nothing to the console, renders to a PNG.
page() {
  local name=$1 file=$2
  browse dom "$file" || { say fail "$name: chromium exited $? (dump-dom)"; return; }
  if grep -E 'CONSOLE|Uncaught|Refused to' "$tmp/stderr"; then say fail "$name: console output (above)"; else say ok "$name: no console output"; fi
  if grep -q 'data-ddpsim-loaded="yes"' "$tmp/dom"; then say ok "$name: loaded (marker set by its script)"; else say fail "$name: marker not set"; fi
  local svgs; svgs=$(grep -c '<svg' "$tmp/dom")
  [ "$svgs" -ge "${CHARTS:-3}" ] && say ok "$name: $svgs charts in the DOM" || say fail "$name: $svgs charts in the DOM"
  browse shot "$file" "$art/$name.png" || { say fail "$name: chromium exited $? (screenshot)"; return; }
  if grep -E 'CONSOLE|Uncaught|Refused to' "$tmp/stderr"; then say fail "$name: console output while rendering"; fi
  local size; size=$(stat -c %s "$art/$name.png" 2>/dev/null || echo 0)
  [ "$size" -gt 20000 ] && say ok "$name: screenshot $art/$name.png ($size bytes)" || say fail "$name: screenshot missing or blank ($size bytes)"
}

# The pages: written atomically by ddpsim, byte-identical when run again, nothing to fetch.
"$ddpsim" scenario "$scenario" --format html -o "$art/scenario.html" || say fail "scenario --format html exited $?"
"$ddpsim" scenario "$scenario" --format html >"$tmp/again.html"
cmp -s "$art/scenario.html" "$tmp/again.html" && say ok "scenario page: byte-identical rerun" || say fail "scenario page differs between runs"
"$ddpsim" plan "$plan" --format html -o "$art/plan.html" || say fail "plan --format html exited $?"
"$ddpsim" plan "$plan" --format html --jobs 2 >"$tmp/again.html"
cmp -s "$art/plan.html" "$tmp/again.html" && say ok "plan page: byte-identical rerun (--jobs 2)" || say fail "plan page differs between runs"
# Several jobs on one fabric (issue 12): the same page checks.
shared=$(dirname "$scenario")/shared_fabric/bert_resnet_shared_spine.yaml
"$ddpsim" scenario "$shared" --engine flow --format html -o "$art/shared.html" || say fail "shared-fabric --format html exited $?"
grep -q '<svg' "$art/shared.html" && grep -q 'slowdown' "$art/shared.html" && say ok "shared-fabric page: charts and the slowdown table" \
  || say fail "shared-fabric page lacks its charts or table"
for f in scenario plan shared; do
  if grep -nE '(src|href)=|url\(|@import|https?://[^w]' "$art/$f.html"; then say fail "$f page references something to fetch"; fi
done

HEIGHT=1900 page scenario "$art/scenario.html"
HEIGHT=2300 page plan "$art/plan.html"
HEIGHT=1400 CHARTS=2 page shared "$art/shared.html"

# Control: the same checks catch a console error.
printf '<!DOCTYPE html><html><body><script>console.error("control")</script></body></html>\n' >"$tmp/control.html"
browse dom "$tmp/control.html"
grep -q CONSOLE "$tmp/stderr" && say ok "control: a console error is detected" || say fail "control: console error not seen"
exit $fail
