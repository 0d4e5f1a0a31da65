#!/bin/bash
# Install, with apt, the Debian packages the pipeline needs and that are missing.
set -euo pipefail

packages=(
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	dwarves ccache git quilt xz-utils zstd cpio rsync python3 python3-ply
	clang llvm lld libcap-dev zlib1g-dev
	qemu-system-x86 busybox-static python3-sphinx python3-sphinx-rtd-theme
	libxml2-utils linux-config-6.1 python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
	echo "install-deps: missing packages: ${missing[*]}; run as root or install them with apt-get" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
