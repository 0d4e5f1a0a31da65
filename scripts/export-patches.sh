#!/bin/bash
# Regenerate patches/ and series from the commits base..HEAD of the kernel
# tree (the patch-development workflow). The cover letter is kept.
# usage: export-patches.sh <tree> <series> <patchdir>
set -euo pipefail

tree=${1:?usage: export-patches.sh <tree> <series> <patchdir>}
series=$(realpath "${2:?}")
patchdir=$(realpath "${3:?}")

if [[ -n $(git -C "$tree" status --porcelain --untracked-files=no) ]]; then
	echo "export-patches: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
find "$patchdir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-cover-letter.patch' -delete
git -C "$tree" format-patch -q --no-signature --zero-commit --base=base \
	-o "$patchdir" base..HEAD
(cd "$patchdir" && find . -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-cover-letter.patch' -printf '%f\n' | sort) >"$series"
want=$("$(dirname "$0")/series-checksum.sh" "$series" "$patchdir")
echo "$want $(git -C "$tree" rev-parse HEAD)" >"$tree/.git/krsi-series-applied"
echo "export-patches: $(wc -l <"$series") patch(es) in patches/"
