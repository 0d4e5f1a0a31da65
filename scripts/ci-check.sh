#!/bin/bash
# make check with an exit status that tells a failed test from a failed
# build: 0 every test passed; 1 the tests ran and at least one failed (a
# kernel splat, a timeout or a guest that stopped early counts as a failed
# test); 2 no results of this run exist, so an install, build or setup step
# failed before any test ran. GNU make says 2 for both. Arguments go to make
# (ARCH=arm64, LSM=..., KSRC=...). Leaves the run's wall time in
# <results dir>/wall-seconds for scripts/record-run.py.
# usage: ci-check.sh [make variable=value]...
set -euo pipefail

cd "$(dirname "$0")/.."
out=${B:-build}
mkdir -p "$out"
stamp=$(mktemp "$out/.ci-check.XXXXXX")
trap 'rm -f "$stamp"' EXIT
start=$(date +%s)
rc=0
make check "$@" || rc=$?
# The run's own junit.xml is the newest: collect-results.py writes it last
# (the harness's forced-failure boots write theirs under logs/, earlier).
junit=$(find "$out" -name junit.xml -newer "$stamp" -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
if [[ -z $junit ]]; then
	echo "ci-check: exit 2: no test ran (make check exited $rc before writing results); the cause is in make's output above" >&2
	exit 2
fi
echo $(($(date +%s) - start)) >"$(dirname "$junit")/wall-seconds"
if [[ $rc -ne 0 ]]; then
	echo "ci-check: exit 1: tests ran and some failed; results in $(dirname "$junit")/ (junit.xml, <boot>.ktap)" >&2
	exit 1
fi
