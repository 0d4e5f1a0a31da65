#!/bin/bash
# Set the bench figures in the commit messages of the kernel tree's
# series (base..HEAD) from the 6.1 series' own bench run
# (scripts/bench-runs.sh --own 6.1): each passage of
# Documentation/bench/patch-figures.txt that a message holds gets that
# run's figures (scripts/bench-docs.py --message). Rewrites the commits
# (trees unchanged); make patches exports them afterwards.
# usage: update-patch-figures.sh <tree>
set -euo pipefail

tree=$(realpath "${1:?usage: update-patch-figures.sh <kernel tree, e.g. build/linux>}")
docs=$(realpath "$(dirname "$0")/../Documentation/bench")
bench_docs=$(realpath "$(dirname "$0")/bench-docs.py")
run=$("$(dirname "$0")/bench-runs.sh" --own 6.1)

if [[ -n $(git -C "$tree" status --porcelain --untracked-files=no) ]]; then
	echo "update-patch-figures: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
# Fails before any rewrite when a passage names a figure results.csv lacks.
"$bench_docs" "$run" --message "$docs/patch-figures.txt" </dev/null >/dev/null
old=$(git -C "$tree" rev-parse HEAD)
msgs=$(mktemp -d)
trap 'rm -rf "$msgs"' EXIT
# filter-branch runs the filter with sh; %q quoting of these paths holds there.
FILTER_BRANCH_SQUELCH_WARNING=1 git -C "$tree" filter-branch -f --msg-filter \
	"$(printf '%q ' "$bench_docs" "$run" --message "$docs/patch-figures.txt")" \
	base..HEAD >/dev/null 2>"$msgs/filter-branch.err" ||
	{ cat "$msgs/filter-branch.err" >&2; exit 1; }
git -C "$tree" diff --quiet "$old" HEAD ||
	{ echo "update-patch-figures: the tree changed, not only messages; old HEAD $old" >&2; exit 1; }

# Every passage must now be in exactly one message, the one its label
# names: a passage reworded in a message but not in patch-figures.txt
# (or the other way round) matched nothing above.
n=0 changed=0
while read -r new_id old_id; do
	n=$((n + 1))
	msg=$msgs/$(printf '%04d' "$n")-message
	git -C "$tree" log -1 --format=%B "$new_id" >"$msg"
	cmp -s "$msg" <(git -C "$tree" log -1 --format=%B "$old_id") ||
		changed=$((changed + 1))
done < <(paste -d' ' <(git -C "$tree" rev-list --reverse base..HEAD) <(git -C "$tree" rev-list --reverse "base..$old"))
"$bench_docs" "$run" --check-patches "$docs/patch-figures.txt" "$msgs"/*-message ||
	{ echo "update-patch-figures: a passage of patch-figures.txt is in no message or in the wrong one; old HEAD $old" >&2; exit 1; }
echo "update-patch-figures: figures set in $changed of $n commit messages; now make patches"
