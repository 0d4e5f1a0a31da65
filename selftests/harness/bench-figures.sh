#!/bin/bash
# The committed bench figures are those of the committed raw data, and the
# documents show those figures: scripts/bench-report.py rebuilds
# Documentation/bench/results.{csv,md,svg} from raw.txt and meta.txt alone
# (byte for byte), README.md and residual-cost.md hold what
# scripts/bench-docs.py --update would write, the cover letter in
# patches/ holds its template expanded from results.csv, and the patches'
# messages hold the passages of Documentation/bench/patch-figures.txt
# expanded. Then the check itself is checked: a figure changed in a copy
# of README.md, or of a patch, must be found.
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
bench=$root/Documentation/bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "# bench-figures: $*"; exit 1; }

# rebuilt <run dir> [bench-report.py options]: its results, byte for byte.
rebuilt() {
	local dir=$1 out=$work/${1//\//_} f
	(cd "$root" && scripts/bench-report.py -o "$out" "$@") 2>"$work/report.err" ||
		fail "bench-report.py failed on $dir: $(tail -1 "$work/report.err")"
	for f in results.csv results.md results.svg; do
		cmp -s "$out/$f" "$root/$dir/$f" ||
			fail "$dir/$f is not what its raw.txt and meta.txt give (scripts/bench-report.py $*)"
	done
}
rebuilt Documentation/bench --against Documentation/bench/run2 --beside Documentation/bench/arm64
# The arm64 run, and the x86-64 re-run after the call-site patches.
rebuilt Documentation/bench/arm64
rebuilt Documentation/bench/callsite --against Documentation/bench
rebuilt Documentation/bench/6.12
rebuilt Documentation/bench/6.1
rebuilt Documentation/bench/6.12-arm64
rebuilt Documentation/bench/6.1-arm64

docs=("$root/README.md" "$root/Documentation/residual-cost.md" "$root/Documentation/distributions.md")
mapfile -t runs < <("$root/scripts/bench-runs.sh")
"$root/scripts/bench-docs.py" "${runs[@]}" --check "${docs[@]}" ||
	fail "a document's bench figures differ from results.csv"

# The cover letter's text, expanded, must appear in the exported patch.
# cover_in_patch <template> <base> <cover letter patch>
cover_in_patch() {
	local base_arg=''
	[[ $2 == 6.1 ]] && base_arg=' BASE=6.1'
	"$root/scripts/cover-letter.sh" "$1" "$2" | tail -n +2 >"$work/cover.txt"
	python3 - "$work/cover.txt" "$3" <<'PY' ||
import sys
want, patch = (open(p).read() for p in sys.argv[1:3])
sys.exit(0 if want.strip("\n") in patch else 1)
PY
		fail "${3#"$root"/} is not scripts/cover-letter.sh's text (make patches$base_arg)"
}
cover_in_patch "$root/Documentation/cover-letter.txt" 6.1 "$root/patches/0000-cover-letter.patch"
cover_in_patch "$root/Documentation/cover-letter-6.12.txt" 6.12 "$root/patches/6.12/0000-cover-letter.patch"

# The figures of the patches' messages (scripts/update-patch-figures.sh),
# from the 6.1 series' own run.
run61=$("$root/scripts/bench-runs.sh" --own 6.1)
patches=("$root"/patches/[0-9][0-9][0-9][0-9]-*.patch)
"$root/scripts/bench-docs.py" "$run61" \
	--check-patches "$bench/patch-figures.txt" "${patches[@]}" ||
	fail "a patch's message has other figures than results.csv (scripts/update-patch-figures.sh build/linux; make patches)"

# A stale figure in a copy of a patch must be caught, naming its passage,
# and --message (what update-patch-figures.sh runs) must set it back.
mkdir "$work/patches"
cp "${patches[@]}" "$work/patches/"
# The patch of the direct calls, whatever its number.
p2=("$work"/patches/[0-9][0-9][0-9][0-9]-security-Call-BPF-LSM-programs-directly-*.patch)
sed -i '0,/open+close [-+][0-9]/s/\(open+close \)[-+][0-9.]*/\1+99999.9/' "${p2[0]}"
cmp -s "${p2[0]}" "$root/patches/${p2[0]##*/}" && fail "patch 2 has no open+close figure to change"
rc=0
"$root/scripts/bench-docs.py" "$run61" --check-patches "$bench/patch-figures.txt" \
	"$work"/patches/*.patch 2>"$work/check.err" || rc=$?
[[ $rc == 1 ]] || fail "bench-docs.py --check-patches gave $rc on a changed figure, want 1"
grep -q 'passage 2/[0-9]* .*+99999.9' "$work/check.err" ||
	fail "bench-docs.py --check-patches did not name the stale passage: $(head -c 300 "$work/check.err")"
"$root/scripts/bench-docs.py" "$run61" --message "$bench/patch-figures.txt" \
	<"${p2[0]}" >"$work/p2.fixed"
cmp -s "$work/p2.fixed" "$root/patches/${p2[0]##*/}" ||
	fail "bench-docs.py --message did not set patch 2's stale figure back"

# A stale figure in a copy of README.md must be caught.
sed '0,/<!--@[^>]*-->[-+0-9]/s/\(<!--@[^>]*-->\)[-+0-9.]*/\1+99999.9/' "$root/README.md" >"$work/README.md"
cmp -s "$work/README.md" "$root/README.md" && fail "README.md has no tagged figure to change"
rc=0
"$root/scripts/bench-docs.py" "${runs[@]}" --check "$work/README.md" 2>/dev/null || rc=$?
[[ $rc == 1 ]] || fail "bench-docs.py --check gave $rc on a changed figure in README.md, want 1"

echo "# bench-figures: results.{csv,md,svg} rebuilt identical; README.md, residual-cost.md, the cover letter and the patches' messages match results.csv"
