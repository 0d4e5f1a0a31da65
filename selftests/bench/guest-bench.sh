#!/bin/bash
# Guest side of scripts/bench.sh, run by selftests/guest/init.sh: print the
# environment, run lsm_bench (under bench_attach when a hook is named,
# <n>*<hook> for n programs on it), then optionally time attach+detach
# cycles of the file_mprotect program.
# usage: guest-bench.sh <bindir> <[n*]hook|none> <attach-cycles> [lsm_bench options...]
set -euo pipefail

if [[ $# -lt 3 || ! $3 =~ ^[0-9]+$ ]]; then
	echo "usage: guest-bench.sh <bindir> <[n*]file_mprotect|[n*]file_open|none> <attach-cycles> [lsm_bench options...]" >&2
	exit 2
fi
bindir=$1 hook=$2 cycles=$3
shift 3

echo "bench env kernel=$(uname -r) lsm=$(cat /sys/kernel/security/lsm)" \
	"clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
	"cpus=$(nproc) hook=$hook"
progs=1
if [[ $hook =~ ^([0-9]+)\*(.+)$ ]]; then
	progs=${BASH_REMATCH[1]} hook=${BASH_REMATCH[2]}
fi
if [[ $hook == none ]]; then
	"$bindir/lsm_bench" "$@"
else
	"$bindir/bench_attach" --progs "$progs" "$hook" -- "$bindir/lsm_bench" "$@"
fi
if [[ $cycles -gt 0 ]]; then
	"$bindir/bench_attach" --attach-cycles "$cycles" file_mprotect
fi
echo "bench done"
