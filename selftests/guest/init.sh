#!/bin/bash
# PID 1 of the test guest: the host's / is the read-only root. Mount the
# kernel's filesystems and a tmpfs, run the command given after "--" on the
# kernel command line, report its exit status and power off.
set -uo pipefail

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
# A checkout under /tmp (CI's may be) must stay visible under the tmpfs.
repo=$(realpath "$(dirname "$0")/../..")
if [[ $repo == /tmp/* ]]; then
	mkdir -p /run/host-tmp
	mount --bind /tmp /run/host-tmp
fi
mount -t tmpfs tmpfs /tmp
if [[ $repo == /tmp/* ]]; then
	mkdir -p "$repo"
	mount --bind "/run/host-tmp/${repo#/tmp/}" "$repo"
fi
mount -t securityfs securityfs /sys/kernel/security
mount -t bpf bpffs /sys/fs/bpf
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t cgroup2 cgroup2 /sys/fs/cgroup
busybox ip link set lo up

export HOME=/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd /tmp || exit 1

echo "krsi-guest: start $(uname -r) lsm=$(cat /sys/kernel/security/lsm)"
"$@"
echo "krsi-guest: exit $?"
busybox reboot -f
