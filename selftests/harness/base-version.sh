#!/bin/bash
# make tree on a linux-source-6.1 other than the one `series` names: stops
# before extracting anything, naming both versions and BASE_OK; with
# BASE_OK=1 it goes on, and the same package gives the same base commit id
# twice; apply-series.sh then refuses that tree without BASE_OK=1.
# Runs on a fake package (dpkg-query and tarball), in a temporary dir.
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "# base-version: $*"; exit 1; }

fake=6.1.0-0fake
want=$(sed -n 's/^# base: linux-source-6\.1 \([^[:space:]]*\).*/\1/p' "$root/series")
[[ -n $want ]] || fail "series has no '# base: linux-source-6.1 <version>' line"
mkdir -p "$work/bin" "$work/src/linux-source-6.1"
printf '#!/bin/sh\necho %s\n' "$fake" >"$work/bin/dpkg-query"
chmod +x "$work/bin/dpkg-query"
printf 'kernelversion:\n\t@echo 6.1.0\n' >"$work/src/linux-source-6.1/Makefile"
touch -d @1000000000 "$work/src/linux-source-6.1/Makefile"
tar -C "$work/src" -cJf "$work/linux.tar.xz" linux-source-6.1
prepare() { # <tree>
	PATH=$work/bin:$PATH "$root/scripts/prepare-base.sh" "$1" "$work/linux.tar.xz" "$root/series" 2>&1
}

if out=$(prepare "$work/tree"); then
	fail "prepare-base.sh accepted $fake where series names $want: $out"
fi
for word in "$want" "$fake" BASE_OK=1; do
	grep -qF -- "$word" <<<"$out" || fail "the message does not name $word: $out"
done
[[ ! -e $work/tree && ! -e $work/tree.tmp ]] || fail "something was extracted before the stop"
echo "# stops: ${out//$'\n'/ | }"

out=$(BASE_OK=1 prepare "$work/tree") || fail "BASE_OK=1 did not go on: $out"
out2=$(BASE_OK=1 prepare "$work/tree2") || fail "BASE_OK=1 did not go on: $out2"
id=$(git -C "$work/tree" rev-parse base) id2=$(git -C "$work/tree2" rev-parse base)
[[ $id == "$id2" ]] || fail "the same package gave two base commits: $id, $id2"
dates=$(git -C "$work/tree" log -1 --format='%at %ct' base)
[[ $dates == "1000000000 1000000000" ]] ||
	fail "the base commit's dates are $dates, not the tarball Makefile's 1000000000"
echo "# BASE_OK=1 goes on; base commit $id both times"

if out=$("$root/scripts/apply-series.sh" "$work/tree" "$root/series" "$root/patches" 2>&1); then
	fail "apply-series.sh accepted a $fake tree: $out"
fi
grep -qF "$want" <<<"$out" || fail "apply-series.sh's stop does not name $want: $out"
echo "# apply-series.sh stops on that tree too"
