#!/bin/bash
# scripts/ci-check.sh tells a failed test from a failed build: a real
# make check of a kernel tree that does not build must exit 2 and say that
# no test ran; with a stand-in make (first on PATH) that writes a junit.xml
# and fails, as a run with a failed test does, it must exit 1; one that
# writes it and succeeds, 0 with the run's wall time left beside it.
set -euo pipefail

root=$(realpath "$(dirname "$0")/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "# ci-exit-codes: $*"; exit 1; }
run() { # <expected status> <what> [make arguments]: ci-check.sh's status
	local want=$1 what=$2 rc=0
	shift 2
	B=$work/build "$root/scripts/ci-check.sh" "$@" >"$work/out" 2>&1 || rc=$?
	[[ $rc == "$want" ]] || fail "$what: exit $rc, want $want: $(tail -3 "$work/out")"
	echo "# ci-exit-codes: $what: exit $rc: $(grep '^ci-check:' "$work/out" || echo 'no word')"
}

# A tree without a kernel: the configuration step fails, no test runs.
mkdir -p "$work/not-a-kernel"
run 2 "a build that fails" KSRC="$work/not-a-kernel" B="$work/build"
grep -q '^ci-check: exit 2: no test ran' "$work/out" || fail "exit 2 without its message"

mkdir -p "$work/bin"
stand_in() { # <make's status>: a make that writes results, then exits so
	cat >"$work/bin/make" <<STUB
#!/bin/bash
mkdir -p "\$B/results"
echo '<testsuites tests="1" failures="$(( $1 != 0 ))" skipped="0"/>' >"\$B/results/junit.xml"
exit $1
STUB
	chmod +x "$work/bin/make"
}
stand_in 2
PATH=$work/bin:$PATH run 1 "a failed test"
stand_in 0
PATH=$work/bin:$PATH run 0 "every test passed"
[[ -s $work/build/results/wall-seconds ]] || fail "no wall-seconds beside junit.xml"
