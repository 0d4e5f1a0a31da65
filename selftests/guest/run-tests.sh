#!/bin/bash
# Run test programs in the guest and print KTAP: one line per test, then
# "N passed, N failed, N skipped". Exit status 0 exactly when nothing failed.
# A program exits 0 (pass), 4 (skip) or anything else (fail).
# usage: run-tests.sh <test program>...
set -uo pipefail

pass=0 fail=0 skip=0 n=0
echo "KTAP version 1"
echo "1..$#"
for t in "$@"; do
	n=$((n + 1))
	name=$(basename "$t")
	"$t"
	rc=$?
	case $rc in
	0) echo "ok $n $name"; pass=$((pass + 1)) ;;
	4) echo "ok $n $name # SKIP"; skip=$((skip + 1)) ;;
	*) echo "not ok $n $name # exit status $rc"; fail=$((fail + 1)) ;;
	esac
done
echo "$pass passed, $fail failed, $skip skipped"
[[ $fail -eq 0 ]]
