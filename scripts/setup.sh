#!/usr/bin/env bash
# Installs ddpsim's Debian 12 build dependencies (when missing) and builds the release preset.
# Safe to run again: it only installs what is missing and rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config python3
  libsimgrid-dev libboost-graph-dev libeigen3-dev libyaml-cpp-dev libcli11-dev
  catch2 nlohmann-json3-dev libbenchmark-dev librapidcheck-dev
  python3-jsonschema python3-yaml
  python3-torch python3-torchvision  # real PyTorch: scripts/export_model.py, ctest -R pytorch, cli.torch_trace (issue 19)
  clang-16 libfuzzer-16-dev libclang-rt-16-dev
  libssl-dev
  zlib1g-dev  # gzip-compressed profiler traces (model.trace)
  chromium fonts-dejavu-core  # the HTML report's browser test (tests/cli/html_chromium.sh)
  slurm-wlm munge  # a real scheduler for sharded runs (tests/cli/slurm.sh; its daemons use private files)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
