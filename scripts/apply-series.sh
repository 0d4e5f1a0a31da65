#!/bin/bash
# Reset the kernel tree to its "base" tag and apply patches/ in `series`
# order with git am. Skips the work if that exact series is applied already.
# A patch that does not apply is tried again with git am -3; if that fails
# too, git am's output is shown, the tree stays at the last patch that
# applied, patches/ is left as it is, and export-patches.sh refuses to
# export the partial tree.
# usage: apply-series.sh <tree> <series> <patchdir>
set -euo pipefail

tree=${1:?usage: apply-series.sh <tree> <series> <patchdir>}
series=$(realpath "${2:?}")
patchdir=$(realpath "${3:?}")
here=$(dirname "$0")
stamp=$(git -C "$tree" rev-parse --absolute-git-dir)/krsi-series-applied
base_version=$(cat "$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir)/krsi-base-version")
read -r _ found < <("$here/series-base.sh" "$tree")
"$here/check-base-version.sh" "$series" "$found" "the base of $tree"

want=$("$here/series-checksum.sh" "$series" "$patchdir")
names=$("$here/series-patches.sh" "$series" "$patchdir")
mapfile -t names < <(printf '%s' "$names" | sed '/^$/d')

head=$(git -C "$tree" rev-parse HEAD)
if [[ -f $stamp ]]; then
	read -r applied_sum applied_head <"$stamp"
	if [[ $applied_sum == "$want" && $applied_head == "$head" ]]; then
		exit 0
	fi
	if [[ $applied_head != "$head" ]]; then
		echo "apply-series: $tree has commits not exported to patches/; run 'make patches' (or 'git -C $tree reset --hard base' to drop them)" >&2
		exit 1
	fi
fi
if [[ -n $(git -C "$tree" status --porcelain --untracked-files=no) ]]; then
	echo "apply-series: $tree has uncommitted changes; commit them and run 'make patches', or discard them" >&2
	exit 1
fi

rm -f "$stamp"
git -C "$tree" checkout -q -B krsi base
merged=0
for n in ${names[@]+"${names[@]}"}; do
	if git -C "$tree" am -q --keep-cr "$patchdir/$n" >/dev/null 2>&1; then
		continue
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	if out=$(git -C "$tree" am -3 --keep-cr "$patchdir/$n" 2>&1); then
		echo "apply-series: patches/$n applied only with a three-way merge (git am -3)"
		merged=$((merged + 1))
		continue
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	# The next run must not reset what the user builds on top of this.
	echo "partial $(git -C "$tree" rev-parse HEAD)" >"$stamp"
	echo "apply-series: patches/$n does not apply to $base_version, not even with git am -3:" >&2
	# git am's own advice is about the am this script has just aborted.
	grep -Ev '^(hint:|When you have resolved|If you prefer to skip|To restore the original)' <<<"$out" |
		sed 's/^/    /' >&2
	echo "apply-series: $tree holds the patches before it; patches/ is unchanged." >&2
	echo "apply-series: install the base the series was made on, or carry patches/$n over by hand: git -C $tree am -3 $patchdir/$n, resolve, git am --continue." >&2
	exit 1
done
echo "$want $(git -C "$tree" rev-parse HEAD)" >"$stamp"
echo "apply-series: ${#names[@]} patch(es) applied to $base_version"
[[ $merged -eq 0 ]] ||
	echo "apply-series: $merged of them by three-way merge; 'make patches' refreshes them for this base"
