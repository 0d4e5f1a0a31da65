#!/bin/bash
# The commands README.md gives to apply the series to one's own tree work
# as written: each block of the base under test ($KRSI_BASE, default 6.1)
# that follows a "<!-- apply:<name> -->" line of the README (<name> ends in
# -6.12 for 6.12; its indented lines) runs in bash, in a directory holding
# linux-<base>, a fresh checkout of the base (tag "base" of the base's
# managed tree, $KRSI_TREE, the pristine linux-source-<base>), with K set to
# this repository instead of /path/to/krsi. Each must leave the tree the
# series makes: the tree of make tree's branch krsi, file for file.
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
base=${KRSI_BASE:-6.1}
tree=${KRSI_TREE:-$root/build/linux}
series=${KRSI_SERIES:-$root/series}
patchdir=${KRSI_PATCHDIR:-$root/patches}
dir=linux-$base
work=$(mktemp -d)
fail() { echo "# apply-commands: $*"; exit 1; }
cleanup() {
	git -C "$tree" worktree remove --force "$work/$dir" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

git -C "$tree" rev-parse -q --verify base >/dev/null || fail "$tree has no tag base: run make tree"
# The series' tree: base + patches/, as apply-series.sh left it.
applied=$("$root/scripts/series-commit.sh" "$tree" "$series" "$patchdir" 2>&1) ||
	fail "$applied"
want=$(git -C "$tree" rev-parse "$applied^{tree}")

# 6.1's blocks have no suffix, 6.12's end in -6.12.
suffix=
[[ $base == 6.1 ]] || suffix=-$base
mapfile -t blocks < <(sed -n 's/^<!-- apply:\([a-z0-9.-]*\) -->$/\1/p' "$root/README.md" |
	if [[ -n $suffix ]]; then grep -e "$suffix\$"; else grep -v -e '-[0-9.]*$'; fi)
[[ ${#blocks[@]} -ge 2 ]] || fail "README.md has ${#blocks[@]} apply blocks for $base, want git am and quilt"
for name in "${blocks[@]}"; do
	# The indented lines right after the marker, unindented.
	script=$(awk -v m="<!-- apply:$name -->" '
		$0 == m { on = 1; next }
		on && /^    / { sub(/^    /, ""); print; seen = 1; next }
		on && seen { exit }
		on && !/^$/ { exit }' "$root/README.md")
	[[ -n $script ]] || fail "block $name has no commands"
	grep -q '/path/to/krsi' <<<"$script" || fail "block $name does not set K=/path/to/krsi"
	git -C "$tree" worktree add -q --detach "$work/$dir" base
	git -C "$work/$dir" config user.name "KRSI test"
	git -C "$work/$dir" config user.email krsi@localhost
	if ! out=$(cd "$work" && bash -euo pipefail -c "${script//\/path\/to\/krsi/$root}" 2>&1); then
		fail "block $name failed: $(tail -3 <<<"$out")"
	fi
	# quilt leaves .pc/ and its own files: compare what git tracks.
	rm -rf "$work/$dir/.pc"
	git -C "$work/$dir" add -A -f . >/dev/null
	git -C "$work/$dir" rm -r -q --cached patches >/dev/null 2>&1 || true
	got=$(git -C "$work/$dir" write-tree)
	if [[ $got != "$want" ]]; then
		fail "block $name leaves another tree than make tree: $(git -C "$tree" diff --stat "$want" "$got" | tail -1)"
	fi
	echo "# apply-commands: $name: the series' tree ($(git -C "$work/$dir" log --oneline base.. | wc -l) commits)"
	git -C "$tree" worktree remove --force "$work/$dir"
done
