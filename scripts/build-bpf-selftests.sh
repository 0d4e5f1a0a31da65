#!/bin/bash
# Build test_progs and bpf_testmod.ko of a kernel tree's BPF selftests out of tree.
# usage: build-bpf-selftests.sh <kernel tree> <kernel build dir> <output dir>
#
# <kernel build dir> is the O= directory of a configured kernel of <kernel
# tree>, with vmlinux (BTF) built and modules_prepare done. Every output goes
# to <output dir>; nothing is written into <kernel tree>, nor into the build
# dir (bpf_testmod is an external module: its objects land beside its copied
# sources). test_progs is <output dir>/test_progs; run it from <output dir>,
# where it finds bpf_testmod.ko and its BPF objects. bpf_testmod.ko loads only
# into the kernel of <kernel build dir> (vermagic); test_progs skips the tests
# that need it elsewhere.
#
# The 6.1 selftests Makefile honours OUTPUT= but still writes into its own
# source directory: prog_tests/tests.h, a "bpftool" symlink and the whole
# bpf_testmod build (make -C $(KDIR) M=<source dir>). So the make runs in
# <output dir>/src, a shadow of <kernel tree>: tools/testing/selftests/bpf is
# an rsync copy there (minus what its .gitignore files ignore), every other
# entry along that path a symlink into <kernel tree>, so that the Makefile's
# relative paths (../../../lib/bpf, ../../../../scripts/sign-file.c, ...) still
# resolve. The copy is refreshed on every run and keeps the sources' mtimes:
# a rebuild only redoes what changed. Use one output dir per kernel tree.
#
# With ARCH=arm64 in the environment (and an arm64 <kernel build dir>):
# cross-built with $CROSS_COMPILE (default aarch64-linux-gnu-), the
# Makefile's own clang-built helpers (urandom_read) for aarch64, test_progs
# linked statically: the arm64 guest's userland has no libelf. bpftool and
# resolve_btfids stay host tools (the Makefile builds them so).
set -euo pipefail

usage="usage: build-bpf-selftests.sh <kernel tree> <kernel build dir> <output dir>"
[[ $# -eq 3 ]] || { echo "$usage" >&2; exit 2; }

die() {
	echo "build-bpf-selftests: $*" >&2
	exit 1
}

tree=$(realpath -e "$1") || die "no kernel tree $1"
kbuild=$(realpath -e "$2") || die "no kernel build dir $2"
rel=tools/testing/selftests/bpf
[[ -f $tree/$rel/Makefile ]] || die "$tree has no $rel/Makefile"
[[ -f $kbuild/.config ]] || die "$kbuild is not configured (no .config)"
[[ -f $kbuild/vmlinux ]] || die "$kbuild/vmlinux is missing: build the kernel first"
[[ -x $kbuild/scripts/mod/modpost ]] ||
	die "$kbuild/scripts/mod/modpost is missing: run modules_prepare first"
grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$kbuild/.config" ||
	die "$kbuild/.config lacks CONFIG_DEBUG_INFO_BTF=y: vmlinux has no BTF"

mkdir -p "$3"
out=$(realpath "$3")
case $out/ in
"$tree"/*) die "the output dir $out is inside the kernel tree $tree" ;;
esac
# Outputs are kept by mtime: ones built from another tree would look current.
if [[ -f $out/.kernel-tree && $(<"$out/.kernel-tree") != "$tree" ]]; then
	die "$out was built from $(<"$out/.kernel-tree"), not $tree: use another output dir"
fi
echo "$tree" >"$out/.kernel-tree"

# The tree's release (6.1, 6.12) picks its fixes and its clang: 6.12's
# selftests use BPF features (and guard tests on versions) that Debian 12's
# default clang 14 lacks; Debian 12 has clang 19 beside it.
release=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$tree/Makefile" | paste -sd.)
if [[ $release != 6.1 ]]; then
	[[ -x /usr/lib/llvm-19/bin/clang ]] ||
		die "the $release selftests need clang 19: install clang-19, llvm-19 and lld-19 (make deps)"
	export PATH=/usr/lib/llvm-19/bin:$PATH
fi

tree_state() {
	git -C "$tree" --no-optional-locks status --porcelain --ignored 2>/dev/null || true
}
before=$(tree_state)

# The shadow tree: real directories down to selftests/, the (non-hidden)
# entries beside them symlinks into the tree, and a copy of selftests/bpf.
src=$out/src
shopt -s nullglob
dir=
for part in ${rel//\// }; do
	mkdir -p "$src/$dir"
	find "$src/$dir" -mindepth 1 -maxdepth 1 -type l -delete
	for entry in "$tree/$dir"*; do
		name=${entry##*/}
		[[ $name == "$part" ]] || ln -s "$entry" "$src/$dir$name"
	done
	dir+=$part/
done
shopt -u nullglob
mkdir -p "$src/$rel"
rsync -a --delete --filter=':- .gitignore' "$tree/$rel/" "$src/$rel/"
# Fixes of the base's own tests (selftests/upstream-fixes/<release>/*.patch,
# each saying why), applied to the copy. A patched file gets the newer mtime of
# its source and of the fix: make rebuilds it when either changes, not on
# every run (rsync restores the unpatched file each time).
for fix in "$(dirname "$0")"/../selftests/upstream-fixes/"$release"/*.patch; do
	[[ -f $fix ]] || continue
	patch -s -p1 -d "$src/$rel" <"$fix" ||
		die "$fix does not apply to $tree/$rel"
	while read -r file; do
		ref=$tree/$rel/$file
		[[ $fix -nt $ref ]] && ref=$fix
		touch -r "$ref" "$src/$rel/$file"
	done < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$fix")
done
# urandom_read links "liburandom_read.so" from the current directory, though
# the library is built in OUTPUT (fixed upstream after 6.1).
ln -sfn "$out/liburandom_read.so" "$src/$rel/liburandom_read.so"

# Without "make modules", Module.symvers is missing: let modpost check
# bpf_testmod's symbols against vmlinux's at least.
extra_symbols=()
if [[ ! -f $kbuild/Module.symvers && -f $kbuild/vmlinux.symvers ]]; then
	extra_symbols=(KBUILD_EXTRA_SYMBOLS="$kbuild/vmlinux.symvers")
fi

# The Makefile regenerates vmlinux.h, and so every BPF object, whenever
# VMLINUX_BTF is newer. Give it vmlinux's BTF in a file replaced only when
# the BTF or the kernel release (bpf_testmod's vermagic) changed: a kernel
# rebuilt after a change that leaves both alone rebuilds nothing here.
btf=$out/vmlinux.btf
read -r off size < <(readelf -S -W "$kbuild/vmlinux" |
	sed -n 's/.* \.BTF  *PROGBITS  *[0-9a-f]*  *\([0-9a-f]*\)  *\([0-9a-f]*\) .*/\1 \2/p')
[[ -n ${size:-} ]] || die "$kbuild/vmlinux has no .BTF section"
dd if="$kbuild/vmlinux" of="$btf.new" bs=1M iflag=skip_bytes,count_bytes \
	skip=$((16#$off)) count=$((16#$size)) status=none
sig=$(cat "$btf.new" "$kbuild/include/config/kernel.release" | sha256sum)
if [[ -f $btf && $sig == "$(cat "$btf.sig" 2>/dev/null)" ]]; then
	rm -f "$btf.new"
else
	mv -f "$btf.new" "$btf"
	echo "$sig" >"$btf.sig"
fi

# 6.12 compiles each test in the output directory (cd $(@D) && $(CC) -I.),
# so its dependency file names the skeletons it includes bare
# (atomics.lskel.h), which make, running in the source copy, cannot find or
# make on the next run. Name them by their path.
for dep in "$out"/*.test.d; do
	[[ -f $dep ]] || continue
	sed -i -E "s#([[:space:]])([A-Za-z0-9_-]+\.(l?skel|subskel)\.h)#\1$out/\2#g" "$dep"
done

cross=()
case ${ARCH:-x86_64} in
x86 | x86_64) ;;
arm64)
	cross=(ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}"
		CLANG="clang --target=aarch64-linux-gnu"
		LDLIBS="-static -lelf -lz -lzstd -lrt -lpthread")
	;;
*) die "ARCH=$ARCH is not supported; use ARCH=arm64 or leave ARCH unset (x86_64)" ;;
esac

start=$SECONDS
make -C "$src/$rel" -j"$(nproc)" \
	OUTPUT="$out" VMLINUX_BTF="$btf" KDIR="$kbuild" \
	"${extra_symbols[@]}" "${cross[@]}" test_progs
# Sign bpf_testmod.ko as modules_install signs the kernel's own modules: an
# unsigned module taints the kernel. Once: the signature is appended.
ko=$out/bpf_testmod.ko
key=$kbuild/certs/signing_key.pem
if grep -q '^CONFIG_MODULE_SIG=y' "$kbuild/.config" && [[ -f $key ]] &&
	! tail -c 28 "$ko" | grep -qaF '~Module signature appended~'; then
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kbuild/.config")
	"$kbuild/scripts/sign-file" "$hash" "$key" "$kbuild/certs/signing_key.x509" "$ko"
fi
# What an in-tree build links (core_reloc runs ./bpftool); the Makefile
# puts its own link in the copy, where it dangles.
ln -sfn tools/build/bpftool/bootstrap/bpftool "$out/bpftool"

# A check, not a proof: someone editing the tree meanwhile shows up as well.
after=$(tree_state)
if [[ $before != "$after" ]]; then
	diff <(echo "$before") <(echo "$after") >&2 || true
	echo "build-bpf-selftests: warning: $tree changed during the build" \
		"(above: git status before/after): by this build, or by an edit?" >&2
fi
echo "build-bpf-selftests: $out/test_progs ($((SECONDS - start)) s)"
