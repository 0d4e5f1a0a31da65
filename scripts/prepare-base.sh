#!/bin/bash
# Extract the Debian linux-source-<release> that `series` names into a git
# tree whose first commit, tagged "base", is the pristine base. Does
# nothing if the tree exists.
# Stops first if the installed package is not the version `series` was
# made on (see check-base-version.sh). The base commit's dates are the
# tarball's top-level Makefile's mtime: the same package gives the same
# commit id on every machine, the one the cover letter's base-commit names.
# usage: prepare-base.sh <tree> <tarball> <series>
set -euo pipefail

usage="usage: prepare-base.sh <tree> <tarball> <series>"
[[ $# -eq 3 ]] || { echo "$usage" >&2; exit 2; }
tree=$1 tarball=$2 series=$3

if git -C "$tree" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	exit 0
fi
if [[ -e $tree ]]; then
	echo "prepare-base: $tree exists but has no 'base' tag; remove it (make distclean) and retry" >&2
	exit 1
fi
read -r pkg _ < <("$(dirname "$0")/series-base.sh" "$series")
if [[ ! -r $tarball ]]; then
	echo "prepare-base: $tarball not found; install $pkg (make deps)" >&2
	exit 1
fi

pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)
"$(dirname "$0")/check-base-version.sh" "$series" "$pkgver" "the installed package"
tmp=$tree.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
echo "prepare-base: extracting $tarball"
tar -C "$tmp" --strip-components=1 -xf "$tarball"
kver=$(make -s -C "$tmp" kernelversion)

cd "$tmp"
git init -q -b krsi
git config user.name "KRSI pipeline"
git config user.email "krsi@localhost"
git config core.autocrlf false
# Debian's tree ignores most of its own top level: force-add everything.
git add -f -A .
GIT_AUTHOR_DATE="@$(stat -c %Y Makefile) +0000" GIT_COMMITTER_DATE="@$(stat -c %Y Makefile) +0000" \
	git commit -q -m "Linux $kver (Debian $pkg $pkgver)"
git tag base
cd - >/dev/null
mv "$tmp" "$tree"
echo "Linux $kver (Debian $pkg $pkgver)" >"$tree/.git/krsi-base-version"
echo "prepare-base: base is Linux $kver (Debian $pkg $pkgver)"
