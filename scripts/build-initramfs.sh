#!/bin/bash
# The arm64 guest's userland as a gzipped initramfs: bash-static and
# busybox-static from Debian's arm64 packages (apt-get download, kept in
# <output>.debs/), /krsi-init and the stand-ins for what busybox lacks in
# /usr/local/bin (selftests/guest/initramfs/), and /dev/console, packed
# by usr/gen_init_cpio of the arm64 kernel's build dir. The tests
# themselves stay on the host, reached over virtio-9p.
# usage: build-initramfs.sh <arm64 kernel build dir> <output .cpio.gz>
set -euo pipefail

usage="usage: build-initramfs.sh <arm64 kernel build dir> <output .cpio.gz>"
[[ $# -eq 2 ]] || { echo "$usage" >&2; exit 2; }
die() {
	echo "build-initramfs: $*" >&2
	exit 1
}
gen=$1/usr/gen_init_cpio
out=$2
[[ -x $gen ]] || die "$gen is missing: build the arm64 kernel first (make kernel ARCH=arm64)"
files=$(realpath "$(dirname "$0")/../selftests/guest/initramfs")
debs=$out.debs
packages=(busybox-static bash-static)

mkdir -p "$debs"
for p in "${packages[@]}"; do
	compgen -G "$debs/${p}_*_arm64.deb" >/dev/null && continue
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "$p:arm64") ||
		die "apt-get download $p:arm64 failed: run make deps ARCH=arm64 (adds dpkg's arm64 architecture)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/krsi-initramfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
for deb in "$debs"/*_arm64.deb; do
	dpkg-deb -x "$deb" "$work/root"
done
for f in bin/busybox bin/bash-static; do
	[[ -x $work/root/$f ]] || die "no $f in $debs/*.deb: remove $debs and run again"
done

{
	for d in /dev /bin /sbin /usr /usr/bin /usr/sbin /usr/local /usr/local/bin \
		/etc /proc /sys /run /host; do
		echo "dir $d 755 0 0"
	done
	echo "dir /tmp 1777 0 0"
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /bin/busybox $work/root/bin/busybox 755 0 0"
	echo "file /bin/bash $work/root/bin/bash-static 755 0 0"
	echo "file /krsi-init $files/krsi-init 755 0 0"
	for f in "$files"/bin/*; do
		echo "file /usr/local/bin/${f##*/} $f 755 0 0"
	done
} >"$work/list"
mkdir -p "$(dirname "$out")"
"$gen" -t 0 "$work/list" | gzip -n -9 >"$out.tmp"
mv -f "$out.tmp" "$out"
echo "build-initramfs: $out ($(stat -c %s "$out") bytes)"
