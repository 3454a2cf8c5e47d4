#!/usr/bin/env bash
# docs/clusters.md's Kubernetes Indexed Job manifest (issue 20): no cluster here, so the test runs
# what each pod would run. It reads the manifest from the doc (completions, DDPSIM_SHARD_COUNT,
# the container's shell command), checks that the count equals completions, runs the command
# under /bin/sh once per JOB_COMPLETION_INDEX 0..completions-1 (the variable Kubernetes sets in an
# Indexed Job's pods) with /work mapped to a temporary directory, and checks that `ddpsim merge`
# of the pods' files is byte-identical to the serial plan.
set -u
ddpsim=$1 root=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
doc=$root/docs/clusters.md
manifest=$(sed -n '/^    apiVersion: batch\/v1/,/claimName: ddpsim-work/p' "$doc")
[ -n "$manifest" ] || { say fail "no Indexed Job manifest in docs/clusters.md"; exit 1; }
grep -q 'completionMode: Indexed' <<<"$manifest" && say ok "manifest is an Indexed Job" || say fail "manifest is not Indexed"
completions=$(sed -n 's/^ *completions: *\([0-9]*\).*/\1/p' <<<"$manifest")
count=$(grep -A1 'name: DDPSIM_SHARD_COUNT' <<<"$manifest" | sed -n 's/.*value: *"\([0-9]*\)".*/\1/p')
if [ -n "$completions" ] && [ "$completions" = "$count" ]; then say ok "DDPSIM_SHARD_COUNT ($count) == completions ($completions)"
else say fail "DDPSIM_SHARD_COUNT ($count) != completions ($completions)"; exit 1; fi
command=$(grep -A1 '^ *args:' <<<"$manifest" | sed -n 's/^ *- \(ddpsim .*\)$/\1/p')
[[ "$command" == *'${JOB_COMPLETION_INDEX}'* ]] && say ok "pod command uses JOB_COMPLETION_INDEX: $command" ||
  say fail "pod command does not use JOB_COMPLETION_INDEX: $command"
mkdir -p "$tmp/work/shards" "$tmp/bin"
cp "$root/scenarios/plans/gpt2xl.yaml" "$tmp/work/plan.yaml"
ln -s "$ddpsim" "$tmp/bin/ddpsim"
pod_command=${command//\/work/$tmp/work}
for ((i = 0; i < completions; i++)); do
  env -i PATH="$tmp/bin:/usr/bin:/bin" JOB_COMPLETION_INDEX=$i DDPSIM_SHARD_COUNT=$count /bin/sh -c "$pod_command" ||
    say fail "pod $i failed"
done
n=$(ls "$tmp"/work/shards/plan-*.jsonl 2>/dev/null | wc -l)
[ "$n" = "$completions" ] && say ok "$n pods wrote $n shard files" || say fail "$n shard files for $completions pods"
for fmt in table csv; do
  "$ddpsim" plan "$tmp/work/plan.yaml" --format $fmt >"$tmp/serial.$fmt"
  if "$ddpsim" merge "$tmp"/work/shards/plan-*.jsonl --format $fmt >"$tmp/merged.$fmt" && cmp -s "$tmp/serial.$fmt" "$tmp/merged.$fmt"
  then say ok "merge of $completions pods' shards == serial plan ($fmt)"
  else say fail "merge of the pods' shards differs from the serial plan ($fmt)"; fi
done
exit $fail
