#!/usr/bin/env bash
# Issue 18 through the binary: `calibrate fit` says which choice it assumed for each log and
# warns (and records) when a fitted efficiency is implausible; the shipped p5 profile is what its
# command gives; `ddpsim collective --tuner` switches between aws-ofi-nccl's tuner and NCCL's
# model above 2 nodes only; the seed case's job fit warns about its network efficiency.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 1

p5="tests/data/p5_1node_8gpu_allreduce_awsbatch.txt tests/data/p5_2node_16gpu_allreduce_awsome.txt tests/data/p5_2node_16gpu_allreduce_hyperpod_nccl2.27.7.csv"
# shellcheck disable=SC2086
"$ddpsim" calibrate fit $p5 --instance p5.48xlarge --output "$tmp/p5.yaml" 2>"$tmp/err.txt" || say fail "fit exit"
[ "$(grep -c 'ddpsim: assumed .*tuner aws-ofi' "$tmp/err.txt")" = 3 ] && say ok "fit: one assumed choice per log" ||
  say fail "assumed: $(cat "$tmp/err.txt")"
grep -q "aws-ofi-nccl's tuner named in the log" "$tmp/err.txt" && say ok "fit: the HyperPod log's tuner is read" ||
  say fail "tuner not read: $(cat "$tmp/err.txt")"
grep -q 'warning: multi-node efficiency 1\.[0-9]* is at or above 1' "$tmp/err.txt" && say ok "fit: efficiency above 1 warns" ||
  say fail "no warning: $(cat "$tmp/err.txt")"
grep -q '^warnings:' "$tmp/p5.yaml" && grep -q '^  assumed:' "$tmp/p5.yaml" && say ok "profile records warnings and assumptions" ||
  say fail "profile: $(head -20 "$tmp/p5.yaml")"
cmp -s "$tmp/p5.yaml" profiles/p5.48xlarge.yaml && say ok "shipped p5 profile is what the command gives" ||
  say fail "shipped p5 profile differs: $(diff "$tmp/p5.yaml" profiles/p5.48xlarge.yaml | head -5)"
# Every shipped profile is what its documented command (docs/validation.md "Shipped profiles") gives
# with this build: a model change that moves a fit fails here until the profile is refitted (the
# p4de profile was stale for a session before round 4 session 12 noticed).
"$ddpsim" calibrate fit tests/data/p4de_2node_16gpu_allreduce_awsome.txt --instance p4de.24xlarge \
  --output "$tmp/p4de.yaml" 2>/dev/null || say fail "p4de fit exit"
cmp -s "$tmp/p4de.yaml" profiles/p4de.24xlarge.yaml && say ok "shipped p4de profile is what the command gives" ||
  say fail "shipped p4de profile differs: $(diff "$tmp/p4de.yaml" profiles/p4de.24xlarge.yaml | head -5)"
"$ddpsim" calibrate fit tests/data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt --instance p3dn.24xlarge \
  --algorithm ring --output "$tmp/p3dn_shipped.yaml" 2>/dev/null || say fail "p3dn fit exit"
cmp -s "$tmp/p3dn_shipped.yaml" profiles/p3dn.24xlarge.yaml && say ok "shipped p3dn profile is what the command gives" ||
  say fail "shipped p3dn profile differs: $(diff "$tmp/p3dn_shipped.yaml" profiles/p3dn.24xlarge.yaml | head -5)"
# A log that forces the ring (NCCL_TREE_THRESHOLD=0) is priced as a ring without --algorithm.
"$ddpsim" calibrate fit tests/data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt --instance p3dn.24xlarge \
  --output "$tmp/p3dn.yaml" 2>"$tmp/err3.txt"
grep -q 'algorithm ring,.*NCCL_TREE_THRESHOLD=0' "$tmp/err3.txt" && ! grep -q 'algorithm: tree' "$tmp/p3dn.yaml" &&
  say ok "fit: NCCL_TREE_THRESHOLD=0 in the log means ring" || say fail "p3dn: $(cat "$tmp/err3.txt")"
# The log prints NCCL 2.4.8's banner: priced with what 2.4.8 had (no LL128, first in 2.5.6).
grep -q 'NCCL 2.4.8 (the log.s banner)' "$tmp/err3.txt" && ! grep -q 'LL128' "$tmp/p3dn.yaml" &&
  grep -q 'protocol: LL}' "$tmp/p3dn.yaml" && say ok "fit: a 2.4.8 log is priced without LL128" ||
  say fail "p3dn 2.4.8: $(grep -c LL128 "$tmp/p3dn.yaml") LL128 rows; $(cat "$tmp/err3.txt")"
"$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --profile none --algorithm ring --format csv \
  --compare tests/data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt >"$tmp/cmp.csv" 2>"$tmp/cmp.err"
grep -q 'ran NCCL 2.4.8' "$tmp/cmp.err" && ! grep -q LL128 "$tmp/cmp.csv" && grep -q ',ring,LL,' "$tmp/cmp.csv" &&
  say ok "--compare: the log's NCCL 2.4.8, no LL128" || say fail "--compare 2.4.8: $(cat "$tmp/cmp.err")"
"$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --profile none --algorithm ring --format csv --software nccl=2.21.5,aws_ofi_nccl=1.5.0 \
  --compare tests/data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt 2>/dev/null | grep -q ',ring,LL128,' &&
  say ok "--compare: --software nccl= overrides the log's banner" || say fail "--software nccl=2.21.5 did not override"
# NCCL 2.21.5 with the plugin of its era (aws-ofi-nccl 1.13.2) on p3dn: the plugin sets NCCL_PROTO=simple.
"$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --profile none --format csv --software nccl=2.21.5 \
  --compare tests/data/p3dn_2node_16gpu_allreduce_efa_nccl2.4.8_ring_only.txt >"$tmp/simple.csv" 2>/dev/null
[ "$(tail -n +2 "$tmp/simple.csv" | grep -c ',Simple,')" = "$(tail -n +2 "$tmp/simple.csv" | wc -l)" ] &&
  [ "$(tail -n +2 "$tmp/simple.csv" | wc -l)" = 28 ] &&
  say ok "p3dn with aws-ofi-nccl 1.13.2: Simple only (NCCL_PROTO=simple)" || say fail "p3dn 2.21.5: not Simple only: $(cut -d, -f6 "$tmp/simple.csv" | sort | uniq -c | tr '\n' ' ')"
check tree_in_nccl23 2 "NCCL 2.3.7 has no tree" "$ddpsim" collective --instance p3dn.24xlarge --nodes 2 --algorithm tree --software nccl=2.3.7
# A scenario naming what its NCCL release lacks: one located error at the key, before any pricing.
sed -e 's/^  horovod: {defaults: pre-2020}/&\ncommunication:\n  algorithm: tree/' validation/aws/training/cases/awsrn50_n2x8.yaml >"$tmp/tree23.yaml"
check scenario_tree_nccl23 2 "tree23.yaml:20:14: error: communication.algorithm: NCCL 2.3.0 (software.nccl) has no tree across nodes (first in NCCL 2.4.2)" \
  "$ddpsim" scenario "$tmp/tree23.yaml"
sed -e 's/^  horovod: {defaults: pre-2020}/&\ncommunication:\n  nccl_proto: LL128/' validation/aws/training/cases/awsrn50_n2x8.yaml >"$tmp/ll128.yaml"
check scenario_ll128_nccl23 2 "communication.nccl_proto: NCCL 2.3.0 (software.nccl) has no LL128 (first in NCCL 2.5.6)" \
  "$ddpsim" scenario "$tmp/ll128.yaml"

# The tuner acts on p5 above 2 nodes only.
for n in 2 4; do
  "$ddpsim" collective --instance p5.48xlarge --nodes $n -b 256M -e 256M --format csv >"$tmp/aws$n.csv" || say fail "collective"
  "$ddpsim" collective --instance p5.48xlarge --nodes $n -b 256M -e 256M --format csv --tuner nccl >"$tmp/nccl$n.csv"
done
cmp -s "$tmp/aws2.csv" "$tmp/nccl2.csv" && say ok "2 nodes: NCCL decides either way" || say fail "2 nodes differ"
# NCCL before 2.21 loads no tuner from the net plugin: its own model decides at 4 nodes too.
"$ddpsim" collective --instance p5.48xlarge --nodes 4 -b 256M -e 256M --format csv --software nccl=2.20.3 >"$tmp/v220.csv"
cmp -s "$tmp/v220.csv" "$tmp/nccl4.csv" && say ok "NCCL 2.20: no tuner loaded" || say fail "NCCL 2.20 4 nodes: $(cat "$tmp/v220.csv")"
grep -q 'ring.*LL128' "$tmp/aws4.csv" && ! grep -q 'ring.*LL128' "$tmp/nccl4.csv" && say ok "4 nodes, 256 MiB: the tuner's Ring/LL128" ||
  say fail "4 nodes: $(cat "$tmp/aws4.csv" "$tmp/nccl4.csv")"
check bad_tuner 2 "--tuner" "$ddpsim" collective --instance p5.48xlarge --nodes 4 --tuner aws

# The seed case's job fit: network_efficiency 0.0509 warns, and the job profile records it.
cd scenarios || exit 1
"$ddpsim" calibrate job p3_8node_fitted.yaml --fit loader_cpu network_efficiency --fit-on nodes=1,2 \
  --output "$tmp/job.yaml" >/dev/null 2>"$tmp/jerr.txt" || say fail "calibrate job exit"
grep -q 'warning: network_efficiency 0.0509 is below the plausible' "$tmp/jerr.txt" && say ok "job fit: network_efficiency 0.0509 warns" ||
  say fail "job warning: $(cat "$tmp/jerr.txt")"
grep -q '^warnings:' "$tmp/job.yaml" && say ok "job profile records the warning" || say fail "job profile: no warnings"
exit $fail
