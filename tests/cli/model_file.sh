#!/usr/bin/env bash
# model_file.sh DDPSIM DIR: a scenario with `model.file` (issue 19) runs, its DDP buckets follow
# the file's grad_order and the precision's gradient size (amp-fp16 4 bytes, fp16 2 bytes), and
# every bad model file in DIR/bad is refused with exit 2 and one line located in the model file.
set -u
. "$(dirname "$0")/lib.sh"
ddpsim=$1 dir=$(cd "$2" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$dir/tiny.yaml" "$tmp/tiny.yaml"
buckets() {  # PRECISION -> the bucket_bytes of tiny_scenario.yaml at that precision
  sed "s/steps: 10}/steps: 10, precision: $1}/" "$dir/tiny_scenario.yaml" >"$tmp/tiny_$1.yaml"
  "$ddpsim" scenario "$tmp/tiny_$1.yaml" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["bucket_bytes"])'
}
# grad_order [3, 1, 2, 0]: fc2.bias 4000 + fc1.bias 8192 + fc2.weight 8192000 B reach the 1 MiB
# first cap; fc1.weight 8388608 B is the second bucket; the frozen tensor is in none.
want32="[8204192, 8388608]" want16="[4102096, 4194304]"
for p in fp32 amp-fp16 amp-bf16 fp16 bf16; do
  got=$(buckets $p)
  case $p in fp32 | amp-*) want=$want32 ;; *) want=$want16 ;; esac
  if [ "$got" = "$want" ]; then say ok "$p buckets $got"; else say fail "$p buckets $got, want $want"; fi
done
for f in "$dir"/bad/*.yaml; do
  want=$(sed -n 's/^# expect: //p' "$f" | head -1)
  printf 'name: bad\ncluster: {instance: p4d.24xlarge, nodes: 1}\nmodel: {file: %s}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 8, steps: 1}\n' \
    "$f" >"$tmp/s.yaml"
  check "$(basename "$f")" 2 "$f:" "$ddpsim" scenario "$tmp/s.yaml"
  check "$(basename "$f") message" 2 "$want" "$ddpsim" scenario "$tmp/s.yaml"
done
printf 'name: bad\ncluster: {instance: p4d.24xlarge, nodes: 1}\nmodel: {file: nowhere.yaml, preset: resnet50}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 8, steps: 1}\n' >"$tmp/s.yaml"
check "file and preset" 2 "give either model.file or model.preset" "$ddpsim" scenario "$tmp/s.yaml"
printf 'name: bad\ncluster: {instance: p4d.24xlarge, nodes: 1}\nmodel: {file: nowhere.yaml}\ntraining: {framework: pytorch-ddp, batch_per_gpu: 8, steps: 1}\n' >"$tmp/s.yaml"
check "missing model file" 2 "$tmp/s.yaml:3" "$ddpsim" scenario "$tmp/s.yaml"
exit $fail
