#!/usr/bin/env bash
# A real scheduler (issue 20): starts munged, slurmctld and slurmd for one local node, each with
# its own files in a temporary directory (slurm.conf, munge key and socket, state, logs; no
# system service file is read or touched), submits a plan as `sbatch --array=0-2` whose tasks run
# `ddpsim plan --shard` (I and N from Slurm's array variables, as docs/clusters.md's script), then
# checks that `ddpsim merge` of the three outputs is byte-identical to a serial run in every
# format. Every daemon is stopped at the end; every wait is bounded. Skipped (exit 77, a printed
# reason) only when the Slurm or MUNGE programs are missing or the daemons cannot start here.
set -u
ddpsim=$1 root=$2
. "$(dirname "$0")/lib.sh"
skip() { echo "SKIP $*"; exit 77; }
for p in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || skip "$p not installed (scripts/setup.sh installs slurm-wlm and munge)"
done
export PATH="$PATH:/usr/sbin"
tmp=$(mktemp -d /tmp/ddpsim-slurm.XXXXXX)
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
# wait_for SECONDS COMMAND...: polls COMMAND every 0.2 s; fails after SECONDS.
wait_for() {
  local n=$(($1 * 5)); shift
  for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  return 1
}
me=$(id -un)
mkdir -p "$tmp"/{munge,state,spool,out}
chmod 700 "$tmp/munge"
# MUNGE: a private key and socket (munged refuses group/world-accessible keys).
dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 status=none && chmod 600 "$tmp/munge/key"
munged --force --socket="$tmp/munge/sock" --key-file="$tmp/munge/key" --pid-file="$tmp/munge/pid" \
  --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" 2>"$tmp/munge/stderr" ||
  skip "munged cannot start here: $(head -c 300 "$tmp/munge/stderr")"
wait_for 10 test -s "$tmp/munge/pid" || skip "munged wrote no pid file: $(tail -c 300 "$tmp/munge/log")"
pids+=("$(cat "$tmp/munge/pid")")
# Ports from the process id, so that two runs of this test on one machine do not collide.
port=$((20000 + ($$ % 20000)))
cpus=$(nproc)
cat >"$tmp/slurm.conf" <<EOF
ClusterName=ddpsimtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$me
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=localnode NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localnode Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$tmp/slurm.conf" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localnode -f "$tmp/slurm.conf" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { scontrol show node localnode 2>/dev/null | grep -qE 'State=IDLE'; }
if ! wait_for 30 node_idle; then
  echo "--- slurmctld"; tail -5 "$tmp/slurmctld.log" "$tmp/slurmctld.out" 2>/dev/null
  echo "--- slurmd"; tail -5 "$tmp/slurmd.log" "$tmp/slurmd.out" 2>/dev/null
  skip "slurmctld/slurmd did not bring the local node up within 30 s in this sandbox"
fi
say ok "slurmctld and slurmd up: $(scontrol show node localnode | grep -o 'State=[A-Z+]*')"

plan=$root/scenarios/plans/gpt2xl.yaml
# The array script, as docs/clusters.md's plan-array.sbatch: --shard alone takes I and N from
# SLURM_ARRAY_TASK_ID / _MIN / _STEP / _COUNT.
cat >"$tmp/plan-array.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=ddpsim-plan
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=$tmp/out/%x-%A_%a.log
set -euo pipefail
"$ddpsim" plan "$plan" --shard -o "$tmp/out/plan-\${SLURM_ARRAY_TASK_ID}.jsonl"
EOF
jobid=$(sbatch --parsable --array=0-2 "$tmp/plan-array.sbatch" 2>"$tmp/sbatch.err")
[ -n "$jobid" ] || { say fail "sbatch --array=0-2 refused: $(cat "$tmp/sbatch.err")"; exit 1; }
say ok "sbatch --array=0-2 accepted as job $jobid"
queue_empty() { [ -z "$(squeue -h -j "$jobid" 2>/dev/null)" ]; }
if ! wait_for 300 queue_empty; then
  say fail "array job $jobid still queued or running after 300 s: $(squeue -j "$jobid" 2>&1 | tail -3)"
  exit 1
fi
for i in 0 1 2; do
  f=$tmp/out/plan-$i.jsonl
  if [ -s "$f" ] && grep -q "\"shard\":$i" "$f" && grep -q '"of":3' "$f"; then say ok "array task $i wrote shard $i/3"
  else say fail "array task $i: no shard $i/3 ($(cat "$tmp"/out/*_"$i".log 2>/dev/null | head -c 300))"; fi
done
for fmt in table json csv; do
  "$ddpsim" plan "$plan" --format $fmt >"$tmp/serial.$fmt"
  if "$ddpsim" merge "$tmp"/out/plan-{0,1,2}.jsonl --format $fmt >"$tmp/merged.$fmt" && cmp -s "$tmp/serial.$fmt" "$tmp/merged.$fmt"
  then say ok "merge of the Slurm array's 3 shards == serial plan ($fmt, $(wc -c <"$tmp/serial.$fmt") bytes)"
  else say fail "merge of the Slurm array's shards differs from the serial plan ($fmt)"; fi
done
exit $fail
