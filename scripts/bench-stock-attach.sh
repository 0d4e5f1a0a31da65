#!/bin/bash
# What attaching an LSM program does on a stock kernel, from one guest
# boot: bench_attach's messages and exit status. make bench ARCH=arm64
# keeps it as stock-attach.txt: stock arm64 6.1 has no ftrace direct
# calls, so its configuration (4), stock + a program, cannot run.
# usage: bench-stock-attach.sh <stock image> <dir with bench_attach> <lsm>
set -euo pipefail

usage="usage: bench-stock-attach.sh <stock image> <dir with bench_attach> <lsm>"
[[ $# -eq 3 ]] || { echo "bench-stock-attach: $usage" >&2; exit 2; }
image=$1 lsm=$3
[[ -r $image ]] || { echo "bench-stock-attach: $image is not readable; build it with make stock-kernel" >&2; exit 2; }
[[ -x $2/bench_attach ]] || { echo "bench-stock-attach: $2/bench_attach missing; run make -C selftests/bench" >&2; exit 2; }
bindir=$(realpath "$2")
log=$bindir/logs/stock-attach.log

root=$(realpath "$(dirname "$0")/..")

# guest-bench.sh as make bench runs it for configuration (4), the shortest
# lsm_bench run after bench_attach, if it attaches.
rc=0
"$root/scripts/run-guest.sh" "$image" "$log" 300 "$lsm" -- \
	"$root/selftests/bench/guest-bench.sh" "$bindir" file_mprotect 0 -r 1 -s 1 >/dev/null 2>&1 || rc=$?
echo "kernel: ${image#"$root"/} ($(tr -d '\r' <"$log" | sed -n 's/^krsi-guest: start //p'))"
echo "guest-bench.sh <bindir> file_mprotect 0 (bench_attach file_mprotect -- lsm_bench): exit status $rc"
tr -d '\r' <"$log" | grep -E '^(# bench_attach|libbpf):' || true
