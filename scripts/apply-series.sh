#!/bin/bash
# Reset the kernel tree to its "base" tag and apply patches/ in `series`
# order with git am. Skips the work if that exact series is applied already.
# usage: apply-series.sh <tree> <series> <patchdir>
set -euo pipefail

tree=${1:?usage: apply-series.sh <tree> <series> <patchdir>}
series=$(realpath "${2:?}")
patchdir=$(realpath "${3:?}")
stamp=$(git -C "$tree" rev-parse --absolute-git-dir)/krsi-series-applied
base_version=$(cat "$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir)/krsi-base-version")

want=$("$(dirname "$0")/series-checksum.sh" "$series" "$patchdir")
names=$("$(dirname "$0")/series-patches.sh" "$series" "$patchdir")
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

git -C "$tree" checkout -q -B krsi base
for n in ${names[@]+"${names[@]}"}; do
	if ! git -C "$tree" am -q --keep-cr "$patchdir/$n" >/dev/null 2>&1; then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		echo "apply-series: patches/$n does not apply to $base_version" >&2
		exit 1
	fi
done
echo "$want $(git -C "$tree" rev-parse HEAD)" >"$stamp"
echo "apply-series: ${#names[@]} patch(es) applied to $base_version"
