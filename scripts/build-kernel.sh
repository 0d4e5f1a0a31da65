#!/bin/bash
# Build bzImage, modules_prepare and the BTF-carrying vmlinux out of tree,
# through ccache when it is installed.
# usage: build-kernel.sh <tree> <out>
set -euo pipefail

tree=${1:?usage: build-kernel.sh <tree> <out>}
out=$(realpath "${2:?usage: build-kernel.sh <tree> <out>}")

cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$(realpath "$tree")")} CCACHE_NOHASHDIR=1
fi
# Fixed build stamps keep ccache hits and vmlinux reproducible.
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2026-01-01}
export KBUILD_BUILD_USER=krsi KBUILD_BUILD_HOST=krsi

start=$SECONDS
make -s -C "$tree" O="$out" -j"$(nproc)" CC="$cc" bzImage modules_prepare
echo "build-kernel: $out/arch/x86/boot/bzImage ($((SECONDS - start)) s)"
