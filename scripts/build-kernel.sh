#!/bin/bash
# Build bzImage, modules_prepare and the BTF-carrying vmlinux out of tree,
# through ccache when it is installed. With ARCH=arm64 in the environment:
# arch/arm64/boot/Image instead of bzImage, with $CROSS_COMPILE (default
# aarch64-linux-gnu-).
# usage: build-kernel.sh <tree> <out>
set -euo pipefail

tree=${1:?usage: build-kernel.sh <tree> <out>}
out=$(realpath "${2:?usage: build-kernel.sh <tree> <out>}")

case ${ARCH:-x86_64} in
x86 | x86_64) image=arch/x86/boot/bzImage kmake=() cross= ;;
arm64)
	image=arch/arm64/boot/Image cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
	kmake=(ARCH=arm64 CROSS_COMPILE="$cross")
	;;
*) echo "build-kernel: ARCH=$ARCH is not supported; use ARCH=arm64 or leave ARCH unset (x86_64)" >&2; exit 2 ;;
esac

cc=${cross}gcc
if command -v ccache >/dev/null; then
	cc="ccache $cc"
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$(realpath "$tree")")} CCACHE_NOHASHDIR=1
fi
# Fixed build stamps keep ccache hits and vmlinux reproducible.
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2026-01-01}
export KBUILD_BUILD_USER=krsi KBUILD_BUILD_HOST=krsi

start=$SECONDS
make -s -C "$tree" O="$out" -j"$(nproc)" "${kmake[@]}" CC="$cc" "${image##*/}" modules_prepare
echo "build-kernel: $out/$image ($((SECONDS - start)) s)"
