#!/bin/bash
# Install, with apt, the Debian packages the pipeline needs and that are missing.
# With ARCH=arm64 in the environment (make ... ARCH=arm64), also the arm64
# cross toolchain, qemu-system-aarch64 and the arm64 static libraries the
# tests link; those need dpkg's arm64 architecture, which is added then.
set -euo pipefail

packages=(
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	dwarves ccache git quilt xz-utils zstd cpio rsync python3 python3-ply
	clang llvm lld libcap-dev zlib1g-dev
	qemu-system-x86 busybox-static python3-sphinx python3-sphinx-rtd-theme
	libxml2-utils linux-config-6.1 python3-matplotlib gdb
	linux-source-6.12 linux-config-6.12 clang-19 llvm-19 lld-19 libzstd-dev
)

foreign=0
case ${ARCH:-x86_64} in
x86 | x86_64) ;;
arm64)
	packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
		libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libcap-dev:arm64
		libssl-dev:arm64 gdb-multiarch)
	dpkg --print-foreign-architectures | grep -qx arm64 || foreign=1
	;;
*) echo "install-deps: ARCH=$ARCH is not supported; use ARCH=arm64 or leave ARCH unset (x86_64)" >&2; exit 2 ;;
esac

# A name without :<arch> is the native package (or an Architecture: all
# one); with dpkg's arm64 architecture added, the arm64 copy of a
# multi-arch package does not count for it.
native=$(dpkg --print-architecture)
installed() { # <package>[:<arch>]
	local arch=$native

	[[ $1 != *:* ]] || arch=${1#*:}
	dpkg-query -W -f='${Status} ${Architecture}\n' "${1%%:*}" 2>/dev/null |
		grep -Eqx "install ok installed ($arch|all)"
}

missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 && $foreign -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
	echo "install-deps: missing packages: ${missing[*]}; run as root or install them with apt-get" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if [[ $foreign -eq 1 ]]; then
	echo "install-deps: adding dpkg's arm64 architecture"
	dpkg --add-architecture arm64
fi
apt-get update -q
[[ ${#missing[@]} -eq 0 ]] && exit 0
apt-get install -y -q --no-install-recommends "${missing[@]}"
