#!/bin/bash
# Regenerate patches/ and series from the commits base..HEAD of the kernel
# tree (the patch-development workflow), with a cover letter whose subject
# and text come from <cover template> (scripts/cover-letter.sh; default
# Documentation/cover-letter.txt) and whose base-commit
# is the tree's "base" (git format-patch --base); `series` names the
# Debian version of that base. Refuses to run on a tree that lacks one of
# the patches series lists (a failed apply leaves such a tree): exporting
# it would delete that patch.
# usage: export-patches.sh <tree> <series> <patchdir> [<cover template>]
set -euo pipefail

tree=$(realpath "${1:?usage: export-patches.sh <tree> <series> <patchdir> [<cover template>]}")
series=$(realpath "${2:?}")
patchdir=$(realpath "${3:?}")

if [[ -n $(git -C "$tree" status --porcelain --untracked-files=no) ]]; then
	echo "export-patches: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
# A tree made from these very patches (apply-series.sh's stamp) may have
# reworded or dropped some; any other tree must hold every listed subject.
stamp=$(git -C "$tree" rev-parse --absolute-git-dir)/krsi-series-applied
if [[ -f $series ]] && [[ ! -f $stamp ||
	$(cut -d' ' -f1 "$stamp") != "$("$(dirname "$0")/series-checksum.sh" "$series" "$patchdir")" ]]; then
	subjects=$(git -C "$tree" log --format=%s base..HEAD)
	while IFS= read -r n; do
		[[ -n $n ]] || continue
		subject=$(git -C "$tree" mailinfo /dev/null /dev/null <"$patchdir/$n" | sed -n 's/^Subject: //p')
		if ! grep -qxF -- "$subject" <<<"$subjects"; then
			echo "export-patches: $tree lacks patches/$n (\"$subject\"); patches/ left as it is" >&2
			echo "export-patches: apply the whole series first (make tree), then commit on top of it" >&2
			exit 1
		fi
	done < <("$(dirname "$0")/series-patches.sh" "$series" "$patchdir")
fi
# "linux-source-<release> <Debian version>": the cover letter's behaviour
# table and the series' "# base:" line.
base=$("$(dirname "$0")/series-base.sh" "$tree")
release=${base%% *}
release=${release#linux-source-}
# Expanded first: a figure missing from its source leaves patches/ as it is.
docs=$(dirname "$0")/../Documentation
cover=
template=${4:-$docs/cover-letter.txt}
if [[ -f $template ]]; then
	cover=$(mktemp)
	trap 'rm -f "$cover"' EXIT
	"$(dirname "$0")/cover-letter.sh" "$template" "$release" >"$cover"
fi
find "$patchdir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
git -C "$tree" format-patch -q --no-signature --zero-commit --base=base \
	--cover-letter -o "$patchdir" base..HEAD
# The cover letter's subject and text: first line and the rest of $cover
# (scripts/cover-letter.sh: bench figures, behaviour changes, test runs).
# Its author and date are HEAD's, not the local identity and the clock, so
# that exporting the same commits gives the same files.
if [[ -n $cover ]]; then
	python3 - "$patchdir/0000-cover-letter.patch" "$cover" \
		"$(git -C "$tree" log -1 --format='%an <%ae>')" \
		"$(git -C "$tree" log -1 --format=%aD)" <<'PY'
import re, sys
patch, cover, author, date = sys.argv[1:5]
subject, _, blurb = open(cover).read().partition("\n")
text = open(patch).read()
text = re.sub(r"^From: .*$", lambda m: "From: " + author, text, count=1, flags=re.M)
text = re.sub(r"^Date: .*$", lambda m: "Date: " + date, text, count=1, flags=re.M)
text = text.replace("*** SUBJECT HERE ***", subject.strip(), 1)
text = text.replace("*** BLURB HERE ***", blurb.strip("\n"), 1)
open(patch, "w").write(text)
PY
fi
{
	echo "# base: $base"
	(cd "$patchdir" && find . -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-cover-letter.patch' -printf '%f\n' | sort)
} >"$series"
want=$("$(dirname "$0")/series-checksum.sh" "$series" "$patchdir")
echo "$want $(git -C "$tree" rev-parse HEAD)" >"$(git -C "$tree" rev-parse --absolute-git-dir)/krsi-series-applied"
echo "export-patches: $("$(dirname "$0")/series-patches.sh" "$series" "$patchdir" | wc -l) patch(es) in patches/"
