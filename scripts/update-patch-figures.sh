#!/bin/bash
# Set the bench figures in the commit messages of the kernel tree's
# series (base..HEAD) from Documentation/bench/results.csv: each passage
# of Documentation/bench/patch-figures.txt that a message holds gets the
# figures of results.csv (scripts/bench-docs.py --message). Rewrites the
# commits (trees unchanged); make patches exports them afterwards.
# usage: update-patch-figures.sh <tree>
set -euo pipefail

tree=$(realpath "${1:?usage: update-patch-figures.sh <kernel tree, e.g. build/linux>}")
docs=$(realpath "$(dirname "$0")/../Documentation/bench")
bench_docs=$(realpath "$(dirname "$0")/bench-docs.py")

if [[ -n $(git -C "$tree" status --porcelain --untracked-files=no) ]]; then
	echo "update-patch-figures: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
# Fails before any rewrite when a passage names a figure results.csv lacks.
"$bench_docs" "$docs/results.csv" --message "$docs/patch-figures.txt" </dev/null >/dev/null
old=$(git -C "$tree" rev-parse HEAD)
FILTER_BRANCH_SQUELCH_WARNING=1 git -C "$tree" filter-branch -f --msg-filter \
	"$(printf '%q ' "$bench_docs" "$docs/results.csv" --message "$docs/patch-figures.txt")" \
	base..HEAD >/dev/null
git -C "$tree" diff --quiet "$old" HEAD ||
	{ echo "update-patch-figures: the tree changed, not only messages; old HEAD $old" >&2; exit 1; }
echo "update-patch-figures: $(git -C "$tree" rev-list --count base..HEAD) commits rewritten; now make patches"
