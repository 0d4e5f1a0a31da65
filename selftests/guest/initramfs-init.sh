#!/bin/bash
# /krsi-init, PID 1 of the arm64 guest's initramfs, whose userland is
# bash-static and busybox-static (scripts/build-initramfs.sh): busybox's
# applets into the PATH, the host's / read-only over virtio-9p at /host,
# each of its top-level directories that the initramfs lacks (/work,
# /home, /root, ...) and /tmp bound at the same path, and the repository
# too, so that host paths mean the same in the guest; then init.sh, the
# x86 guest's PID 1, given as the first argument, the command after it.
set -euo pipefail

/bin/busybox --install -s
mkdir -p /host /proc /sys /run /tmp
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=1048576 krsiroot /host
for dir in /host/*; do
	name=${dir#/host/}
	if [ ! -d "$dir" ] || [ -L "$dir" ]; then continue; fi
	case $name in proc | sys | dev | run | host) continue ;; esac
	if [ ! -e "/$name" ] || [ "$name" = tmp ]; then
		mkdir -p "/$name"
		mount --bind "$dir" "/$name"
	fi
done
# A repository under a directory the initramfs has (/usr/src/...).
repo=${1%/selftests/guest/init.sh}
if [ ! -d "$repo/selftests" ]; then
	mkdir -p "$repo"
	mount --bind "/host$repo" "$repo"
fi
exec "$@"
