#!/bin/bash
# Run tests in the guest and print KTAP: one line per test, then
# "N passed, N failed, N skipped" alone on a line. Exit status 0 exactly
# when nothing failed. No test is run twice.
# usage: run-tests.sh <test>...
#   <test> is a program, which exits 0 (pass), 4 (skip) or anything else
#   (fail), with its arguments after commas (<program>,<arg>...: the kernel
#   command line carries no spaces); or setup:<program>[,<arg>...], a step
#   that is reported only when it fails; or pipeline:<program>[,<arg>...], a
#   test that passes on the unpatched base too (it checks the pipeline, not
#   the series) and says so in its name; or test_progs=<dir>:<test>[,<test>...],
#   which runs the upstream test_progs of <dir> once per <test> and reports
#   each of its (sub)tests.
#
# With $KRSI_RESULTS naming a device (the harness passes the guest's second
# serial port), the result lines also go there, each preceded by
# "# time: <seconds>" when the test was timed alone: the host turns that
# channel into build/results/ files. $KRSI_FORCE_FAIL and $KRSI_FORCE_SPLAT
# exist to test the harness itself: the first is read by the selftests
# (krsi_test.h), the second makes this runner provoke a kernel stack dump
# (sysrq "l") after the last test.
set -uo pipefail

pass=0 fail=0 skip=0 n=0
results=/dev/null
if [[ -n ${KRSI_RESULTS:-} ]]; then
	results=$KRSI_RESULTS
	stty -F "$results" raw -echo 2>/dev/null || true
fi
exec 3>"$results"

report() { # <status: 0 pass, 4 skip, else fail> <name> [reason [seconds]]
	local line

	n=$((n + 1))
	case $1 in
	0) line="ok $n $2"; pass=$((pass + 1)) ;;
	4) line="ok $n $2 # SKIP${3:+ $3}"; skip=$((skip + 1)) ;;
	*) line="not ok $n $2${3:+ # $3}"; fail=$((fail + 1)) ;;
	esac
	echo "$line"
	[[ -z ${4:-} ]] || echo "# time: $4" >&3
	echo "$line" >&3
}

now() { date +%s.%N; }
elapsed() { # <start>
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

# test_progs prints "#N/M test/subtest:RESULT" for each subtest, then
# "#N test:RESULT": parse <output> into the leaf results ("RESULT name",
# names may hold spaces), in order: the
# subtests, and the tests that have none. Failures are printed again after
# "All error logs:"; each result counts once.
parse_test_progs() { # <output> <array name for "RESULT name" lines>
	local line id name result
	local -A has_subtests=() seen=()
	local -n leaves=$2

	leaves=()
	while IFS= read -r line; do
		[[ $line =~ ^#([0-9]+)(/[0-9]+)?[[:space:]]+(.+):(OK|SKIP|FAIL)$ ]] || continue
		id=${BASH_REMATCH[1]} name=${BASH_REMATCH[3]} result=${BASH_REMATCH[4]}
		[[ -z ${seen[$id${BASH_REMATCH[2]}]:-} ]] || continue
		seen[$id${BASH_REMATCH[2]}]=1
		if [[ -n ${BASH_REMATCH[2]} ]]; then
			has_subtests[$id]=1
		elif [[ -n ${has_subtests[$id]:-} ]]; then
			continue
		fi
		leaves+=("$result $name")
	done <"$1"
}

# Run test_progs -t <test> in <dir> and report each (sub)test it ran. A
# test with subtests is timed as a whole: its subtests carry no time.
run_test_progs() { # <dir> <test>
	local out=/tmp/test_progs.$n.out leaf rc start secs
	local fail_before=$fail
	local -a tp_leaves=()

	start=$(now)
	(cd "$1" && ./test_progs -t "$2" 3>&-) | tee "$out"
	rc=${PIPESTATUS[0]}
	secs=$(elapsed "$start")
	parse_test_progs "$out" tp_leaves
	[[ ${#tp_leaves[@]} -eq 1 ]] || secs=
	for leaf in "${tp_leaves[@]}"; do
		case $leaf in
		"OK "*) report 0 "${leaf#* }" "" "$secs" ;;
		"SKIP "*) report 4 "${leaf#* }" "" "$secs" ;;
		*) report 1 "${leaf#* }" "" "$secs" ;;
		esac
	done
	# A test the filter names must have run: a missing one is a failure.
	# A test with some subtests skipped ends "OK (SKIP: 1/5)".
	if [[ ${#tp_leaves[@]} -eq 0 ]]; then
		report 1 "$2" "no result in test_progs' output"
	elif ! grep -Eq "^#[0-9]+[[:space:]]+${2%%/*}:(OK|SKIP|FAIL)( \(SKIP: [0-9]+/[0-9]+\))?$" "$out"; then
		report 1 "$2" "not run by test_progs"
	fi
	# A crash or a failure outside any test still fails the run.
	if [[ $rc -ne 0 && $fail -eq $fail_before ]]; then
		report 1 "test_progs -t $2" "exit status $rc"
	fi
}

echo "KTAP version 1"
for t in "$@"; do
	if [[ $t == test_progs=* ]]; then
		spec=${t#test_progs=}
		IFS=, read -r -a names <<<"${spec#*:}"
		for name in "${names[@]}"; do
			run_test_progs "${spec%%:*}" "$name"
		done
		continue
	fi
	kind="test"
	if [[ $t =~ ^(setup|pipeline): ]]; then
		kind=${BASH_REMATCH[1]}
		t=${t#*:}
	fi
	IFS=, read -r -a argv <<<"$t"
	name=$(basename "${argv[0]}")${argv[1]:+ ${argv[*]:1}}
	[[ $kind != pipeline ]] || name="pipeline-check $name"
	start=$(now)
	"${argv[@]}" 3>&-
	rc=$?
	secs=$(elapsed "$start")
	case $kind:$rc in
	setup:0) echo "# setup: $name" ;;
	setup:*) report "$rc" "setup $name" "exit status $rc" "$secs" ;;
	*:0 | *:4) report "$rc" "$name" "" "$secs" ;;
	*) report "$rc" "$name" "exit status $rc" "$secs" ;;
	esac
done
if [[ -n ${KRSI_FORCE_SPLAT:-} ]]; then
	echo "# KRSI_FORCE_SPLAT: provoking a stack dump (sysrq l)"
	echo l >/proc/sysrq-trigger
	sleep 1
fi
echo "1..$n"
echo "1..$n" >&3
echo "$pass passed, $fail failed, $skip skipped"
[[ $fail -eq 0 ]]
