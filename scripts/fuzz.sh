#!/usr/bin/env bash
# Builds the `fuzz` preset (clang-16, libFuzzer, ASan + UBSan) in build/fuzz and runs every fuzz
# target for SECONDS each (default 60), seeded from the repository's own inputs. Exits non-zero on
# the first finding; the crashing input is left in build/fuzz/findings/<target>/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# The corpora in build/fuzz/corpus/ grow across runs (they are not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_scenario fuzz_profile fuzz_catalog fuzz_nccl_log fuzz_cli)

start=$(date +%s)
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]}"
echo "fuzz: build took $(( $(date +%s) - start )) s"

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
mkdir -p build/fuzz/corpus/fuzz_cli
printf 'collective\n--instance\np4d.24xlarge\n--nodes\n2\n-b\n8\n-e\n1G' >build/fuzz/corpus/fuzz_cli/seed_collective
printf 'catalog\n--format\njson' >build/fuzz/corpus/fuzz_cli/seed_catalog
printf 'scenario\nscenarios/p3_8node.yaml\n--jobs\n2' >build/fuzz/corpus/fuzz_cli/seed_scenario
printf 'calibrate\nfit\ntests/data/p5_1node_8gpu_allreduce_awsbatch.txt\n--instance\np5.48xlarge\n--out\nx.yaml' \
  >build/fuzz/corpus/fuzz_cli/seed_calibrate

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One target per core at a time (libFuzzer itself is single-threaded).
run_one() {
  local t=$1 log=build/fuzz/findings/$1.log
  mkdir -p "build/fuzz/findings/$t"
  # -rss_limit_mb: an input that needs gigabytes is itself a finding (the guards should refuse it).
  if build/fuzz/fuzz/$t -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=8192 \
       -artifact_prefix="build/fuzz/findings/$t/" -print_final_stats=1 \
       "build/fuzz/corpus/$t" >"$log" 2>&1; then
    echo "fuzz: $t: $(awk '/^stat::number_of_executed_units/ {print $2}' "$log") executions in ${seconds} s, no finding"
  else
    echo "fuzz: $t: FINDING (see $log and build/fuzz/findings/$t/)"
    tail -40 "$log"
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
