#!/bin/bash
# make clean deletes build/lint, where make lint keeps a git worktree of
# the kernel tree: afterwards no worktree may stay registered without its
# folder, and lint's "git worktree add" must work again. Runs make clean
# with B= a temporary build dir holding a small git tree.
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "# clean-worktrees: $*"; exit 1; }
B=$work/build

mkdir -p "$B/linux"
git -C "$B/linux" init -q -b krsi
echo base >"$B/linux/f.txt"
git -C "$B/linux" add f.txt
git -C "$B/linux" -c user.name=t -c user.email=t@localhost commit -q -m base
git -C "$B/linux" tag base
git -C "$B/linux" worktree add -q --detach "$B/lint/linux" base

# None of the calling make's variables, which it exports (make check
# KOUT=... would have clean delete that KOUT).
env -i PATH="$PATH" HOME="$HOME" make -s -C "$root" clean BASE=6.1 B="$B" >/dev/null
[[ ! -e $B/lint ]] || fail "make clean left $B/lint"
if git -C "$B/linux" worktree list --porcelain | grep -q '^prunable'; then
	fail "a worktree stays registered: $(git -C "$B/linux" worktree list)"
fi
out=$(git -C "$B/linux" worktree add -q --detach "$B/lint/linux" base 2>&1) ||
	fail "lint's worktree add fails after make clean: $out"
echo "# make clean unregisters build/lint's worktree; lint can add it again"
