#!/usr/bin/env bash
# What NCCL's socket transport will open per connection on this host (or in this pod), from the
# network interface it uses. NCCL (src/transport/net_socket.cc, ncclNetSocketGetNsockNthread,
# v2.4.8-1 .. today) reads /sys/class/net/<if>/device/vendor: 0x1d0f (AWS ENA/EFA) gives
# 2 helper threads x 8 sockets, 0x1ae0 (GCP gVNIC) 4 x 1, anything else, or no vendor at all (a
# Kubernetes pod's veth, a bridge, lo), no helper threads and one socket. NCCL_SOCKET_NTHREADS and
# NCCL_NSOCKS_PERTHREAD, when set, win. ddpsim's keys: cluster.pod_network, software.nccl_socket_nthreads,
# software.nccl_nsocks_perthread (docs/scenario.md).
# Usage: scripts/nccl_nic_vendor.sh [IFACE ...]   (default: every interface but lo)
set -u
ifaces=("$@")
[ ${#ifaces[@]} -gt 0 ] || ifaces=($(ls /sys/class/net | grep -vx lo))
for i in "${ifaces[@]}"; do
  [ -e "/sys/class/net/$i" ] || { echo "$i: no such interface" >&2; exit 2; }
  v=$(cat "$(readlink -f "/sys/class/net/$i/device/vendor" 2>/dev/null)" 2>/dev/null | head -c 6)
  case $v in
    0x1d0f) what="AWS: 2 helper threads x 8 sockets per connection" ;;
    0x1ae0) what="GCP gVNIC: 4 helper threads x 1 socket per connection" ;;
    "") v=none; what="no PCI device (veth, bridge, loopback): no helper threads, 1 socket per connection (cluster.pod_network: true)" ;;
    *) what="no helper threads, 1 socket per connection" ;;
  esac
  echo "$i: vendor $v: $what"
done
