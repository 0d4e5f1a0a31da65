#!/bin/bash
# make tree on a base the patches do not fit: a patch whose context moved
# applies by git am -3 and says so; a patch that conflicts stops the apply
# with git am's own output, leaves no git am in progress and patches/ and
# series untouched, and make patches then refuses to export the partial
# tree. Runs the real scripts on a small git tree in a temporary dir.
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "# failed-apply: $*"; exit 1; }
g() { git -C "$work/tree" "$@"; }
sums() { (cd "$work" && sha256sum series patches/*); }

mkdir -p "$work/tree" "$work/patches"
g init -q -b krsi
g config user.name "KRSI developers"
g config user.email krsi@localhost
seq -f 'line %g' 20 >"$work/tree/f.txt"
g add f.txt
g commit -q -m base
g tag base
echo "Linux 6.1.0 (Debian linux-source-6.1 6.1.0-0test)" >"$work/tree/.git/krsi-base-version"
sed -i 's/^line 3$/line 3 patched/' "$work/tree/f.txt"
g commit -q -am "f: patch line 3"
sed -i 's/^line 15$/line 15 patched/' "$work/tree/f.txt"
g commit -q -am "f: patch line 15"
"$root/scripts/export-patches.sh" "$work/tree" "$work/series" "$work/patches" >/dev/null
grep -qx '# base: linux-source-6.1 6.1.0-0test' "$work/series" || fail "series names no base: $(cat "$work/series")"

rebase_to() { # <sed expression>: make "base" a commit that changes f.txt
	g checkout -q --detach base
	sed -i "$1" "$work/tree/f.txt"
	g commit -q -am "new base"
	g tag -f base >/dev/null
	g checkout -q krsi
	g reset -q --hard base
	rm -f "$work/tree/.git/krsi-series-applied"
}
apply() { "$root/scripts/apply-series.sh" "$work/tree" "$work/series" "$work/patches" 2>&1; }

# Line 5 changes: patch 1's context, not its change.
rebase_to 's/^line 5$/line 5 moved/'
out=$(apply) || fail "a patch with moved context did not apply with git am -3: $out"
grep -q 'three-way merge (git am -3)' <<<"$out" || fail "no word of the three-way merge: $out"
echo "# moved context: applied by git am -3, and said so"

# Line 15 changes: patch 2 conflicts.
before=$(sums)
rebase_to 's/^line 15$/line 15 changed by the base/'
if out=$(apply); then
	fail "a conflicting patch applied: $out"
fi
grep -q 'not even with git am -3' <<<"$out" || fail "no word of git am -3: $out"
grep -Eq '^    .*(Patch failed at|CONFLICT|could not apply)' <<<"$out" ||
	fail "git am's output is not shown: $out"
if grep -q 'make patches' <<<"$out"; then
	fail "the failed apply advises make patches: $out"
fi
[[ ! -d $work/tree/.git/rebase-apply ]] || fail "a git am is left in progress"
[[ $(sums) == "$before" ]] || fail "patches/ or series changed"
printf "# %s\n" "conflict: stopped, nothing left in progress:" "${out//$'\n'/ | }"

if out=$("$root/scripts/export-patches.sh" "$work/tree" "$work/series" "$work/patches" 2>&1); then
	fail "make patches exported a partial tree: $out"
fi
[[ $(sums) == "$before" ]] || fail "make patches changed patches/ or series after a failed apply"
echo "# make patches refuses the partial tree: ${out//$'\n'/ | }"

# Carrying the patch over by hand, as the message says, must survive the
# next make tree, which must not reset the tree to base.
g am -q -3 "$work/patches/0002-f-patch-line-15.patch" >/dev/null 2>&1 || true
sed -i 's/^<<<<<<< .*$//; s/^=======$//; s/^>>>>>>> .*$//' "$work/tree/f.txt"
g add f.txt
GIT_EDITOR=true g am --continue >/dev/null 2>&1 || fail "the hand fix did not commit"
carried=$(g rev-parse HEAD)
if out=$(apply); then
	fail "apply-series.sh went on over a hand-carried patch: $out"
fi
[[ $(g rev-parse HEAD) == "$carried" ]] || fail "apply-series.sh reset the hand-carried patch"
echo "# a hand-carried patch survives the next make tree: ${out//$'\n'/ | }"

