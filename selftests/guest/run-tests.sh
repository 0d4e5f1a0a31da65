#!/bin/bash
# Run tests in the guest and print KTAP: one line per test, then
# "N passed, N failed, N skipped" alone on a line. Exit status 0 exactly
# when nothing failed.
# usage: run-tests.sh <test>...
#   <test> is a program, which exits 0 (pass), 4 (skip) or anything else
#   (fail), with its arguments after commas (<program>,<arg>...: the kernel
#   command line carries no spaces), or test_progs=<dir>:<test_progs -t
#   filter>, which runs the upstream test_progs of <dir> and reports each of
#   its (sub)tests.
set -uo pipefail

pass=0 fail=0 skip=0 n=0

report() { # <status: 0 pass, 4 skip, else fail> <name> [reason]
	n=$((n + 1))
	case $1 in
	0) echo "ok $n $2"; pass=$((pass + 1)) ;;
	4) echo "ok $n $2 # SKIP${3:+ $3}"; skip=$((skip + 1)) ;;
	*) echo "not ok $n $2${3:+ # $3}"; fail=$((fail + 1)) ;;
	esac
}

# test_progs prints "#N/M test/subtest:RESULT" for each subtest, then
# "#N test:RESULT": parse <output> into the leaf results, in order: the
# subtests, and the tests that have none. Failures are printed again after
# "All error logs:"; each result counts once.
parse_test_progs() { # <output> <array name for "name RESULT" lines>
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
		leaves+=("$name $result")
	done <"$1"
}

# Run test_progs -t <filter> in <dir>; a test that fails runs once more,
# alone, and is reported with the second result, marked as retried: some
# upstream tests depend on which task a softirq interrupts.
run_test_progs() { # <dir> <filter>
	local out=/tmp/test_progs.$n.out leaf l2 name result rc rc2 test
	local fail_before=$fail
	local -a first=() second=() failed=()
	local -A retried=()

	(cd "$1" && ./test_progs -t "$2") | tee "$out"
	rc=${PIPESTATUS[0]}
	parse_test_progs "$out" first
	for leaf in "${first[@]}"; do
		[[ ${leaf##* } == FAIL ]] || continue
		test=${leaf% *}
		test=${test%%/*}
		[[ -n ${retried[$test]:-} ]] || failed+=("$test")
		retried[$test]=1
	done
	if [[ ${#failed[@]} -gt 0 ]]; then
		echo "# retrying once: ${failed[*]}"
		(cd "$1" && ./test_progs -t "$(IFS=,; echo "${failed[*]}")") | tee "$out.retry"
		rc2=${PIPESTATUS[0]}
		parse_test_progs "$out.retry" second
		[[ $rc2 -ne 0 ]] || rc=0
	fi
	for leaf in "${first[@]}"; do
		name=${leaf% *} result=${leaf##* }
		test=${name%%/*}
		if [[ -n ${retried[$test]:-} ]]; then
			result=FAIL
			for l2 in "${second[@]}"; do
				[[ ${l2% *} == "$name" ]] && result=${l2##* }
			done
			name+=" (retried)"
		fi
		case $result in
		OK) report 0 "$name" ;;
		SKIP) report 4 "$name" ;;
		FAIL) report 1 "$name" ;;
		esac
	done
	# A test the filter names must have run: a missing one is a failure.
	for name in ${2//,/ }; do
		name=${name%%/*}
		grep -Eq "^#[0-9]+[[:space:]]+$name:(OK|SKIP|FAIL)$" "$out" ||
			report 1 "$name" "not run by test_progs"
	done
	# A crash or a failure outside any test still fails the run.
	if [[ $rc -ne 0 && $fail -eq $fail_before ]]; then
		report 1 "test_progs -t $2" "exit status $rc"
	fi
}

echo "KTAP version 1"
for t in "$@"; do
	if [[ $t == test_progs=* ]]; then
		spec=${t#test_progs=}
		run_test_progs "${spec%%:*}" "${spec#*:}"
		continue
	fi
	IFS=, read -r -a argv <<<"$t"
	"${argv[@]}"
	rc=$?
	name=$(basename "${argv[0]}")${argv[1]:+ ${argv[*]:1}}
	case $rc in
	0 | 4) report "$rc" "$name" ;;
	*) report "$rc" "$name" "exit status $rc" ;;
	esac
done
echo "1..$n"
echo "$pass passed, $fail failed, $skip skipped"
[[ $fail -eq 0 ]]
