#!/bin/bash
# Make <stock>, a git worktree of the managed kernel tree at its "base"
# tag: the unpatched kernel that make bench compares the series with.
# Laid out like the managed tree (<dir>/linux beside <dir>/kernel), so
# ccache, with CCACHE_BASEDIR, shares objects between the two builds.
# usage: prepare-stock.sh <managed tree> <stock>
set -euo pipefail

tree=${1:?usage: prepare-stock.sh <managed tree> <stock>}
stock=${2:?usage: prepare-stock.sh <managed tree> <stock>}

if [[ -e $stock/.git ]]; then
	[[ $(git -C "$stock" rev-parse HEAD) == $(git -C "$tree" rev-parse base) ]] ||
		git -C "$stock" checkout -q --detach base
	exit 0
fi
mkdir -p "$(dirname "$stock")"
git -C "$tree" worktree add -q --detach "$(realpath -m "$stock")" base
echo "prepare-stock: $stock is $(cat "$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir)/krsi-base-version")"
