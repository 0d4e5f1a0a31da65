#!/bin/bash
# Boot each kernel <boots> times with <vcpus> vCPUs, each boot running one
# test (a run-tests.sh spec: "test_progs=<dir>:<test>", "<program>,<arg>")
# once, and count per kernel the boots in which it failed, a kernel splat
# or a timeout included: the measurement behind "does the series change
# this test's failure rate". The kernels' boots alternate, so that the
# host's load falls on all alike. Prints one line per boot, then "<name>:
# K of N boots failed" per kernel. Console logs and result channels go to
# <dir>. KRSI_ACCEL and KRSI_QEMU_OPTS go to run-guest.sh.
# usage: repeat-boots.sh <label> <lsm> <vcpus> <boots> <dir> <name>=<bzImage>,<spec>...
set -euo pipefail

usage="usage: repeat-boots.sh <label> <lsm> <vcpus> <boots> <dir> <name>=<bzImage>,<spec>..."
[[ $# -ge 6 ]] || { echo "$usage" >&2; exit 2; }
label=$1 lsm=$2 vcpus=$3 boots=$4 dir=$5
shift 5
here=$(dirname "$(realpath "$0")")
runner=$(realpath "$here/../selftests/guest/run-tests.sh")
declare -A image=() spec=() failed=()
names=()
for k in "$@"; do
	[[ $k =~ ^([a-z0-9-]+)=([^,]+),(.+)$ ]] || { echo "$usage" >&2; exit 2; }
	names+=("${BASH_REMATCH[1]}")
	image[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	spec[${BASH_REMATCH[1]}]=${BASH_REMATCH[3]}
	failed[${BASH_REMATCH[1]}]=0
	[[ -f ${BASH_REMATCH[2]} ]] || { echo "repeat-boots: no ${BASH_REMATCH[2]}; build it first" >&2; exit 2; }
done
mkdir -p "$dir"

for i in $(seq 1 "$boots"); do
	for name in "${names[@]}"; do
		raw=$dir/$name.$i.raw
		KRSI_RESULTS=$raw KRSI_QEMU_OPTS="${KRSI_QEMU_OPTS:-} -smp $vcpus" \
			"$here/run-guest.sh" "${image[$name]}" "$dir/$name.$i.log" 600 "$lsm" -- \
			"$runner" "${spec[$name]}" >/dev/null 2>&1 || true
		bad=$(sed -n 's/^not ok [0-9-]* //p' "$raw" | tr '\n' ';')
		if [[ -n $bad ]] || ! grep -q '^ok ' "$raw"; then
			failed[$name]=$((failed[$name] + 1))
			echo "$name boot $i: failed: ${bad:-no results}"
		else
			echo "$name boot $i: passed ($(grep -c '^ok ' "$raw") subtests)"
		fi
	done
done
for name in "${names[@]}"; do
	echo "$name: ${failed[$name]} of $boots boots failed ($label, $vcpus vCPUs)"
done
