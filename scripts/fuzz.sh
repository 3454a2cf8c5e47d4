#!/usr/bin/env bash
# Builds the `fuzz` preset (clang-16, libFuzzer, ASan + UBSan) in build/fuzz and runs every fuzz
# target for SECONDS each (default 60), seeded from the repository's own inputs and its committed
# regressions (fuzz/regressions/<target>/). Exit status: 0 nothing found; 1 a finding (its input,
# minimised, is written to fuzz/regressions/<target>/ so that once fixed and committed it is
# replayed by CTest's fuzz.replay.<target>) or a failed fuzz build; 3 no clang-16 (nothing to build with).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# With FUZZ_SEED=S set, libFuzzer's random stream is seeded with S: the same corpus, binary and
# seed give the same inputs in the same order, so a run cut short by SECONDS runs a prefix of a
# longer one (CI uses this: what ran clean here runs clean there).
# With FUZZ_RUNS=N set, each target stops after N executions instead (SECONDS is then only a cap):
#   FUZZ_RUNS=1000000 nice -n 19 scripts/fuzz.sh 14400      # a long campaign: commit its logs
# (build/fuzz/findings/<target>.log) under fuzz/logs/ before docs/reliability.md cites its numbers.
# The corpora in build/fuzz/corpus/ grow across runs (they are not committed).
# The preset compiles -O2 with line tables only (-gline-tables-only, as OSS-Fuzz's clang builds do):
# a report still names file and line, and the build takes about a tenth less time than with full
# debug info (390 s -> 346 s on 2 cores, round 4 session 24).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_scenario fuzz_profile fuzz_catalog fuzz_nccl_log fuzz_cli fuzz_plan fuzz_jobs fuzz_merge fuzz_job_profile)

start=$(date +%s)
if [ -z "${FUZZ_SKIP_BUILD:-}" ]; then  # FUZZ_SKIP_BUILD=1: reuse the built targets (resume a campaign)
  if ! command -v clang++-16 >/dev/null; then
    echo "fuzz: clang-16 is missing (scripts/setup.sh installs it): no fuzz build"
    exit 3
  fi
  if ! cmake --preset fuzz >/dev/null || ! cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]}"; then
    echo "fuzz: the fuzz build failed"  # a broken build is a failure, not a skip
    exit 1
  fi
  echo "fuzz: build took $(( $(date +%s) - start )) s"
fi

# Seeds: what each edge reads in real use.
seed() {
  local target=$1; shift
  local dir=build/fuzz/corpus/$target
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$dir/seed_$(basename "$f")"; done
  return 0
}
seed fuzz_scenario scenarios/*.yaml tests/cli/bad/*.yaml bench/*.yaml
seed fuzz_profile profiles/*.yaml
seed fuzz_catalog topology/catalog/*.yaml
seed fuzz_nccl_log tests/data/* tests/cli/bad_logs/*
seed fuzz_plan scenarios/plans/*.yaml
seed fuzz_jobs scenarios/shared_fabric/*.yaml
seed fuzz_job_profile scenarios/jobs/*.yaml tests/data/*job*.yaml
for t in "${targets[@]}"; do seed "$t" fuzz/regressions/"$t"/*; done
mkdir -p build/fuzz/corpus/fuzz_cli
printf 'collective\n--instance\np4d.24xlarge\n--nodes\n2\n-b\n8\n-e\n1G' >build/fuzz/corpus/fuzz_cli/seed_collective
printf 'catalog\n--format\njson' >build/fuzz/corpus/fuzz_cli/seed_catalog
printf 'scenario\nscenarios/p3_8node.yaml\n--jobs\n2' >build/fuzz/corpus/fuzz_cli/seed_scenario
printf 'calibrate\nfit\ntests/data/p5_1node_8gpu_allreduce_awsbatch.txt\n--instance\np5.48xlarge\n--out\nx.yaml' \
  >build/fuzz/corpus/fuzz_cli/seed_calibrate

# malloc_context_size=0: no allocation stacks in reports (rerun a saved input for them); about 1.5x
# the executions per second on these allocation-heavy parsers. Detection is unchanged.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:symbolize=0:malloc_context_size=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
rss_limit_mb=2048
# One target per core at a time (libFuzzer itself is single-threaded).
# Memory is watched from outside: libFuzzer's own -rss_limit_mb handler prints ASan's memory
# profile, which stops the world with ptrace; where ptrace is not permitted (containers, CI
# sandboxes) it never returns and the run hangs. Past the limit we send SIGABRT instead, which
# libFuzzer's crash handler turns into a saved input like any other finding. Every run also has a
# hard wall-clock limit so that nothing here can stall CI.
run_one() {
  local t=$1 log=build/fuzz/findings/$1.log
  mkdir -p "build/fuzz/findings/$t"
  local t0 runs=()
  t0=$(date +%s)
  [ -z "${FUZZ_RUNS:-}" ] || runs=(-runs="$FUZZ_RUNS")
  [ -z "${FUZZ_SEED:-}" ] || runs+=(-seed="$FUZZ_SEED")
  timeout -k 10 $(( seconds + 120 )) build/fuzz/fuzz/$t "${runs[@]}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=0 \
       -malloc_limit_mb=$rss_limit_mb -max_len=8192 -artifact_prefix="build/fuzz/findings/$t/" \
       -print_final_stats=1 "build/fuzz/corpus/$t" >"$log" 2>&1 &
  local pid=$! over=0
  while kill -0 "$pid" 2>/dev/null; do
    local child rss
    child=$(pgrep -P "$pid" -x "${t:0:15}" | head -1 || true)  # the kernel keeps 15 characters of a name
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/${child:-$pid}/status" 2>/dev/null || echo 0)
    if [ "${rss:-0}" -gt $(( rss_limit_mb * 1024 )) ] && [ $over = 0 ]; then
      over=1
      echo "fuzz: $t: over ${rss_limit_mb} MB of memory (out-of-memory finding); aborting it" >>"$log"
      kill -ABRT "${child:-$pid}" 2>/dev/null || true
    fi
    sleep 0.5
  done
  if wait "$pid" && [ $over = 0 ]; then
    echo "fuzz: $t: $(awk '/^stat::number_of_executed_units/ {print $2}' "$log") executions in $(( $(date +%s) - t0 )) s, no finding"
  else
    echo "fuzz: $t: FINDING (see $log and build/fuzz/findings/$t/)"
    tail -40 "$log"
    # Keep the input, minimised (at most 2 minutes), beside the committed regressions.
    local crash
    crash=$(ls -t "build/fuzz/findings/$t"/crash-* "build/fuzz/findings/$t"/timeout-* "build/fuzz/findings/$t"/oom-* 2>/dev/null | head -1 || true)
    if [ -n "$crash" ]; then
      mkdir -p "fuzz/regressions/$t"
      local keep
      keep="fuzz/regressions/$t/$(date -u +%Y%m%d)-$(basename "$crash")"
      timeout -k 10 120 "build/fuzz/fuzz/$t" -minimize_crash=1 -max_total_time=100 -timeout=20 -rss_limit_mb=0 \
        -exact_artifact_path="$keep" "$crash" >>"$log" 2>&1 || true
      [ -s "$keep" ] || cp "$crash" "$keep"
      echo "fuzz: $t: the input is kept as $keep: fix it, then commit it (CTest replays it)"
    fi
    return 1
  fi
}
status=0
pids=()
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do sleep 1; done
  run_one "$t" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
echo "fuzz: total $(( $(date +%s) - start )) s"
exit $status
