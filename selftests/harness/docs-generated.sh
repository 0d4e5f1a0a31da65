#!/bin/bash
# Each fact is written once and the documents show it as generated: README.md
# holds what scripts/docs-generate.py renders from
# Documentation/behaviour-changes.md, Documentation/runs/, series and the
# patches' subjects; the prog_lsm.rst of the series' tree of the base under
# test ($KRSI_BASE, default 6.1: its documentation patch) holds the section
# rendered from that base's behaviour table. A table with one row dropped
# must fail both checks. `make help` names each target once, and no tracked file
# speaks of the project's own bookkeeping (this file names its words).
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
base=${KRSI_BASE:-6.1}
tree=${KRSI_TREE:-$root/build/linux}
series=${KRSI_SERIES:-$root/series}
patchdir=${KRSI_PATCHDIR:-$root/patches}
table=$root/Documentation/behaviour-changes.md
[[ $base == 6.1 ]] || table=$root/Documentation/behaviour-changes-$base.md
gen=$root/scripts/docs-generate.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "# docs-generated: $*"; exit 1; }

"$gen" --base 6.12 --check "$root/README.md" 2>"$work/err" || fail "$(cat "$work/err")"

applied=$("$root/scripts/series-commit.sh" "$tree" "$series" "$patchdir" 2>&1) ||
	fail "$applied"
git -C "$tree" show "$applied:Documentation/bpf/prog_lsm.rst" >"$work/prog_lsm.rst"
"$gen" --base "$base" --rst "$work/prog_lsm.rst" --check 2>"$work/err" ||
	fail "the $base series' prog_lsm.rst: $(cat "$work/err")"

# A row dropped from a table must be caught in both documents.
drop_row() { # <table> <out>
	awk '/^\| / && ++n == 4 { next } { print }' "$1" >"$2"
	cmp -s "$1" "$2" && fail "no row to drop in $1"
	return 0
}
drop_row "$root/Documentation/behaviour-changes-6.12.md" "$work/table-6.12.md"
KRSI_BEHAVIOUR_TABLE=$work/table-6.12.md "$gen" --base 6.12 --check "$root/README.md" 2>/dev/null &&
	fail "docs-generate.py --check missed a row dropped from the table in README.md"
drop_row "$table" "$work/table.md"
KRSI_BEHAVIOUR_TABLE=$work/table.md "$gen" --base "$base" --rst "$work/prog_lsm.rst" --check 2>/dev/null &&
	fail "docs-generate.py --check missed a row dropped from the table in prog_lsm.rst"

# make help: every target once, and every target of .PHONY in it.
make -s -C "$root" help >"$work/help" 2>&1 || fail "make help failed: $(head -3 "$work/help")"
dups=$(awk '{ print $2 }' "$work/help" | sort | uniq -d)
[[ -z $dups ]] || fail "make help lists more than once: $dups"
read -r -a phony <<<"$(sed -n 's/^\.PHONY: //p' "$root/Makefile")"
for t in "${phony[@]}"; do
	awk -v t="$t" '$2 == t { found = 1 } END { exit !found }' "$work/help" ||
		fail "make help does not list $t"
done

# The project's bookkeeping stays out of what it ships.
words='\b(issue|review)s? #?[0-9]|\bsessions?\b|\b(the|this|that) issue\b|\bfound by review\b'
if hits=$(git -C "$root" ls-files -z -- ':!selftests/harness/docs-generated.sh' |
	xargs -0 grep -InHiE "$words" -- 2>/dev/null); then
	fail "words of the project's bookkeeping: $(head -3 <<<"$hits")"
fi
echo "# docs-generated: README.md and the $base prog_lsm.rst match their sources; a dropped row is caught; make help lists $(grep -c "^  make " "$work/help") targets once"
