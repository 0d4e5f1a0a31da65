#!/bin/bash
# make check KSRC=<another tree> builds that tree's kernel, selftests and
# test_progs (with its libbpf) in output dirs of its own, never in the
# managed tree's build/kernel, build/selftests, build/bpf-selftests. Reads
# the commands make would run (make -n).
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
fail() { echo "# other-tree: $*"; exit 1; }
other=/nonexistent/linux-other

base=${KRSI_BASE:-6.1}
mk() { env -i PATH="$PATH" HOME="$HOME" make -n -C "$root" BASE="$base" KSRC="$other" "$@" 2>&1 || true; }
cmds=$(mk bpf-selftests; mk -o kernel -o selftests -o bpf-selftests check)
tp=$(grep -o 'build-bpf-selftests.sh [^ ]* [^ ]* [^ ]*' <<<"$cmds" | head -1)
[[ -n $tp ]] || fail "make -n check does not build test_progs: $cmds"
read -r _ src kout out <<<"$tp"
[[ $src == "$other" ]] || fail "test_progs is built from $src, not $other"
# The base's outputs: build/ for 6.1, build/<base>/ for the others.
bb=$root/build
[[ $base == 6.1 ]] || bb=$root/build/$base
want=$bb/trees/${other//\//_}
for dir in "$kout" "$out"; do
	[[ $dir == "$want"/* ]] || fail "$dir is not under $want"
done
grep -q "check.sh $want/kernel/arch/x86/boot/bzImage .* $want/selftests $want/bpf-selftests$" <<<"$cmds" ||
	fail "check.sh does not run $want's kernel and tests: $(grep check.sh <<<"$cmds")"
echo "# KSRC=$other: kernel, selftests and test_progs in $want"
