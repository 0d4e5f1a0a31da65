#!/bin/bash
# Check the series as upstream maintainers do: checkpatch.pl --strict of the base
# tree on every patch (no errors, no warnings), `quilt push -a` on a pristine
# copy of the base, and a kernel build after each patch in turn.
# The kernel is configured with the given fragments (configure-kernel.sh).
# usage: lint-series.sh <tree> <series> <patchdir> <workdir> <fragment>...
set -euo pipefail

usage="usage: lint-series.sh <tree> <series> <patchdir> <workdir> <fragment>..."
[[ $# -ge 5 ]] || { echo "$usage" >&2; exit 2; }
tree=$(realpath "$1")
series=$(realpath "$2")
patchdir=$(realpath "$3")
work=$4
shift 4
fragments=("$@")
here=$(dirname "$(realpath "$0")")
mkdir -p "$work"
work=$(realpath "$work")

names=$("$here/series-patches.sh" "$series" "$patchdir")
mapfile -t names < <(printf '%s' "$names" | sed '/^$/d')
if [[ ${#names[@]} -eq 0 ]]; then
	echo "lint-series: series is empty, nothing to check"
	exit 0
fi

# 1. checkpatch of the base tree.
rm -rf "$work/base"
mkdir -p "$work/base"
git -C "$tree" archive base | tar -x -C "$work/base"
# Errors and warnings fail; CHECKs are shown. Those the series keeps:
# "Macro argument reuse 'FUNC'" (a token pasted into names), CamelCase
# register names where arm64's bpf_jit.h uses them, an alignment inside
# LIBBPF_OPTS().
bad=0 checks=0
for n in "${names[@]}"; do
	out=$(cd "$work/base" && { perl scripts/checkpatch.pl --strict --quiet "$patchdir/$n" 2>&1 || true; })
	[[ -n $out ]] || continue
	echo "lint-series: checkpatch: $n:"
	echo "$out"
	if grep -Eq '^(ERROR|WARNING):|Traceback' <<<"$out"; then
		bad=1
	fi
	checks=$((checks + $(grep -c '^CHECK:' <<<"$out" || true)))
done
[[ $bad -eq 0 ]] || { echo "lint-series: FAIL: checkpatch errors or warnings"; exit 1; }
echo "lint-series: checkpatch --strict: ${#names[@]} patch(es), no errors or warnings, $checks check(s)"

# 2. quilt on a pristine copy.
(cd "$work/base" && QUILT_PATCHES=$patchdir QUILT_SERIES=$series quilt push -a -q >"$work/quilt.log" 2>&1) || {
	echo "lint-series: FAIL: quilt push -a (see $work/quilt.log)"
	exit 1
}
echo "lint-series: quilt push -a: ${#names[@]} patch(es) applied"

# 3. Build after each patch (bisectability).
mapfile -t commits < <(git -C "$tree" rev-list --reverse base..HEAD)
if [[ ${#commits[@]} -ne ${#names[@]} ]]; then
	echo "lint-series: $tree has ${#commits[@]} commits over base but series lists ${#names[@]}; run make tree or make patches" >&2
	exit 1
fi
# Named like the managed tree: build-kernel.sh sets CCACHE_BASEDIR to the
# tree's parent, so the same relative paths let ccache find make kernel's
# objects for every file a patch does not change.
wt=$work/linux
if [[ ! -e $wt ]]; then
	git -C "$tree" worktree add -q --detach "$wt" base
fi
for i in "${!commits[@]}"; do
	git -C "$wt" checkout -q --detach "${commits[$i]}"
	"$here/configure-kernel.sh" "$wt" "$work/kernel" "${fragments[@]}" >/dev/null
	if ! "$here/build-kernel.sh" "$wt" "$work/kernel" >"$work/build-$((i + 1)).log" 2>&1; then
		echo "lint-series: FAIL: build after ${names[$i]} (see $work/build-$((i + 1)).log)"
		exit 1
	fi
	echo "lint-series: builds after ${names[$i]}"
done
