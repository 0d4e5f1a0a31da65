#!/bin/bash
# The arm64 guest's userland as a gzipped initramfs: bash-static and
# busybox-static from Debian's arm64 packages, plus the few Debian
# binaries that test_progs' LSM tests run and busybox has not or runs
# under another name (rm, true, mktemp and truncate from coreutils, blkid,
# mke2fs: busybox's mktemp refuses ima_setup.sh's template) with the
# shared libraries they need (checked: a missing one stops the build); /krsi-init and the stand-ins of selftests/guest/initramfs/
# (in /usr/local/bin); /dev/console. The packages come from apt-get
# download and are kept in <output>.debs/; usr/gen_init_cpio of the arm64
# kernel's build dir packs the archive. The tests themselves stay on the
# host, reached over virtio-9p.
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
# The library packages, and the binaries taken from the others (paths in
# the packages; busybox's applets fill the rest). Every shared library in
# lib/ and usr/lib/aarch64-linux-gnu/ of the packages goes in.
libs=(libc6 libblkid1 libuuid1 libcom-err2 libext2fs2)
bins=(bin/rm bin/true bin/mktemp usr/bin/truncate sbin/blkid sbin/mke2fs)
packages=(busybox-static bash-static coreutils util-linux e2fsprogs "${libs[@]}")

mkdir -p "$debs"
for p in "${packages[@]}"; do
	compgen -G "$debs/${p}_*_arm64.deb" >/dev/null && continue
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "$p:arm64") ||
		die "apt-get download $p:arm64 failed: run make deps ARCH=arm64 (adds dpkg's arm64 architecture)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/krsi-initramfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
for p in "${packages[@]}"; do
	dpkg-deb -x "$(compgen -G "$debs/${p}_*_arm64.deb" | head -1)" "$root"
done
for f in bin/busybox bin/bash-static "${bins[@]}"; do
	[[ -x $root/$f ]] || die "no $f in $debs/*.deb: remove $debs and run again"
done

dirs=(/dev /bin /sbin /usr /usr/bin /usr/sbin /usr/local /usr/local/bin /etc /proc /sys /run /host)
{
	echo "dir /tmp 1777 0 0"
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /bin/busybox $root/bin/busybox 755 0 0"
	echo "file /bin/bash $root/bin/bash-static 755 0 0"
	for f in "${bins[@]}"; do
		echo "file /$f $root/$f 755 0 0"
	done
	echo "slink /sbin/mkfs.ext2 mke2fs 777 0 0"
	echo "file /krsi-init $files/krsi-init 755 0 0"
	for f in "$files"/bin/*; do
		echo "file /usr/local/bin/${f##*/} $f 755 0 0"
	done
	# The shared libraries and the links to them.
	while IFS= read -r path; do
		rel=${path#"$root"}
		if [[ -d $path ]]; then
			echo "dir $rel 755 0 0"
		elif [[ -L $path ]]; then
			echo "slink $rel $(readlink "$path") 777 0 0"
		else
			echo "file $rel $path 755 0 0"
		fi
	done < <(find "$root/lib" "$root/usr/lib/aarch64-linux-gnu" -maxdepth 2 \
		\( -type d -path '*/aarch64-linux-gnu' -o -name 'ld-linux-aarch64.so.1' -o -name '*.so.*' \) |
		sort)
} >"$work/list.body"
{
	for d in "${dirs[@]}" /lib /usr/lib; do echo "dir $d 755 0 0"; done
	cat "$work/list.body"
} >"$work/list"

# Every library the binaries need must be in the list.
have=$(awk '$1 == "file" || $1 == "slink" { sub(/.*\//, "", $2); print $2 }' "$work/list")
for f in "${bins[@]}"; do
	for lib in $(readelf -d "$root/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		grep -qxF "$lib" <<<"$have" || die "/$f needs $lib, which no package of libs=() brings"
	done
done

mkdir -p "$(dirname "$out")"
"$gen" -t 0 "$work/list" | gzip -n -9 >"$out.tmp"
mv -f "$out.tmp" "$out"
echo "build-initramfs: $out ($(stat -c %s "$out") bytes)"
