# Shared by the CLI test scripts (source it). `fail` becomes 1 on any failed check.
fail=0
say() { if [ "$1" = ok ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi; }
# check NAME EXPECTED_RC EXPECTED_SUBSTRING COMMAND...: the command exits EXPECTED_RC with exactly
# one stderr line containing EXPECTED_SUBSTRING, and nothing that looks like a crash.
check() {
  local name=$1 want_rc=$2 want=$3; shift 3
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  local lines; lines=$(printf '%s' "$err" | grep -c '')
  if [ "$rc" != "$want_rc" ] || [ "$lines" != 1 ] || [[ "$err" != *"$want"* ]] ||
     grep -qiE 'terminate|abort|segmentation|stack' <<<"$err"; then
    say fail "$name: rc=$rc (want $want_rc), $lines stderr line(s): $err"
  else
    say ok "$name: $err"
  fi
}
