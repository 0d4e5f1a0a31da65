#!/bin/bash
# The harness reports what happened: a failing assertion, a kernel splat
# and a guest timeout each show as "not ok" in the KTAP file, in junit.xml
# (valid against junit.xsd) and in the summary line, and check.sh's exit
# status is non-zero. Boots <bzImage> through check.sh twice: once with
# file_open_deny forced to fail one real assertion ($KRSI_FORCE_FAIL) and a
# stack dump provoked after the tests ($KRSI_FORCE_SPLAT), once with a test
# that outlives the guest's time limit. Its work dir is not under
# build/results/, where CI looks for results: these failures are wanted.
# usage: KRSI_IMAGE=<bzImage> KRSI_SELFTESTS=<selftests dir> KRSI_LSM=<lsm> \
#        KRSI_WORK=<work dir> forced-failures.sh
#   (arguments in the environment: test names stay free of host paths, and
#   run-tests.sh would split the lsm= list at its commas)
set -euo pipefail

if [[ $# -ne 0 || -z ${KRSI_IMAGE:-} || -z ${KRSI_SELFTESTS:-} || -z ${KRSI_LSM:-} || -z ${KRSI_WORK:-} ]]; then
	echo "usage: KRSI_IMAGE=<bzImage> KRSI_SELFTESTS=<dir> KRSI_LSM=<lsm> KRSI_WORK=<dir> forced-failures.sh" >&2
	exit 2
fi
image=$(realpath "$KRSI_IMAGE") st=$(realpath "$KRSI_SELFTESTS") lsm=$KRSI_LSM work=$KRSI_WORK
here=$(dirname "$(realpath "$0")")
check=$here/../../scripts/check.sh
fail() { echo "# forced-failures: $*"; exit 1; }

run() { # <name> <timeout-s>: check.sh's last line in $summary, status in $rc
	rm -rf "${work:?}/$1"
	rc=0
	"$check" "$image" "$work/$1/logs" "$work/$1/results" "$2" "$lsm" "$st" "$st" \
		>"$work/$1.out" 2>&1 || rc=$?
	summary=$(tail -1 "$work/$1.out")
	"$here/check-results.py" "$work/$1/results" "$summary" "$rc" ||
		fail "$1: the result files disagree (above)"
}

mkdir -p "$work"
KRSI_CMDLINE="KRSI_FORCE_FAIL=file_open_deny KRSI_FORCE_SPLAT=1" \
	KRSI_TESTS="pipeline:$st/file_open_deny pipeline:$st/mprotect_audit" run forced 300
[[ $rc -ne 0 ]] || fail "forced: check.sh exited 0"
[[ $summary =~ ^1\ passed,\ ([0-9]+)\ failed,\ 0\ skipped$ && ${BASH_REMATCH[1]} -ge 2 ]] ||
	fail "forced: summary '$summary', expected 1 passed, >= 2 failed"
ktap=$work/forced/results/check.ktap
grep -Eq '^not ok [0-9]+ pipeline-check file_open_deny # exit status 1$' "$ktap" ||
	fail "forced: no 'not ok' for file_open_deny in $ktap"
grep -q 'open(target) while attached (expected errno 13' "$work/forced/logs/check.log" ||
	fail "forced: file_open_deny did not fail on its forced assertion"
grep -Eq '^not ok [0-9]+ kernel-log: ' "$ktap" || fail "forced: no 'not ok' for the splat in $ktap"
grep -q 'classname="check.kernel-log"' "$work/forced/results/junit.xml" ||
	fail "forced: junit.xml has no testcase for the splat"
echo "# forced assertion and splat: '$summary', exit status $rc, KTAP and JUnit agree"

KRSI_TESTS="sleep,3600" run timeout 30
[[ $rc -ne 0 ]] || fail "timeout: check.sh exited 0"
[[ $summary == "0 passed, 1 failed, 0 skipped" ]] ||
	fail "timeout: summary '$summary', expected 0 passed, 1 failed, 0 skipped"
grep -Eq '^not ok 1 guest-timeout # no exit within 30s$' "$work/timeout/results/check.ktap" ||
	fail "timeout: no 'not ok' for the timeout"
echo "# timeout: '$summary', exit status $rc, KTAP and JUnit agree"
