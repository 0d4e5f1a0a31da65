#!/bin/bash
# Boot a kernel under QEMU TCG with the host's / as its read-only root, run
# a command in it, keep the serial log, and fail on a kernel splat, on a
# guest that does not finish in time, or on the command's failure.
# usage: run-guest.sh [-i] <bzImage> <log> <timeout-s> <lsm> -- <command>...
#   -i: interactive (make vm): no timeout, no log checks.
# Extra kernel parameters come from $KRSI_CMDLINE, extra QEMU options from
# $KRSI_QEMU_OPTS, the accelerator from $KRSI_ACCEL, the CPU model from
# $KRSI_CPU (default max).
#
# Single-threaded TCG by default: with multi-threaded TCG, a vCPU spinning
# in a hook while the other vCPU patches kernel text (static keys,
# trampolines) hung about every other lsm_stress run, on stock 6.1 as on
# the series (RCU stall, RIP stuck on the first byte of the bpf_lsm_ nop),
# and never in single-threaded TCG.
set -euo pipefail

interactive=0
if [[ ${1:-} == -i ]]; then interactive=1; shift; fi
if [[ $# -lt 6 || $5 != -- ]]; then
	echo "usage: run-guest.sh [-i] <bzImage> <log> <timeout-s> <lsm> -- <command>..." >&2
	exit 2
fi
image=$1 log=$2 limit=$3 lsm=$4
shift 5
[[ -r $image ]] || { echo "run-guest: $image not found; build the kernel first (make kernel)" >&2; exit 2; }
init=$(realpath "$(dirname "$0")/../selftests/guest/init.sh")
mkdir -p "$(dirname "$log")"

cmdline="console=ttyS0 root=krsiroot rootfstype=9p ro"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=1048576"
cmdline+=" panic=-1 nokaslr norandmaps lsm=$lsm ${KRSI_CMDLINE:-}"
cmdline+=" init=$init -- $*"

# shellcheck disable=SC2054 # the commas belong to QEMU's option values
qemu=(qemu-system-x86_64 -accel "${KRSI_ACCEL:-tcg,thread=single}" -cpu "${KRSI_CPU:-max}" -smp 2 -m 4G
	-nographic -no-reboot -nodefaults -serial mon:stdio
	-fsdev local,id=krsiroot,path=/,readonly=on,security_model=none,multidevs=remap
	-device virtio-9p-pci,fsdev=krsiroot,mount_tag=krsiroot
	-kernel "$image" -append "$cmdline")
# shellcheck disable=SC2206 # word splitting of the extra options is wanted
qemu+=(${KRSI_QEMU_OPTS:-})

if [[ $interactive -eq 1 ]]; then
	exec "${qemu[@]}"
fi

status=0
: >"$log"
timeout --foreground "$limit" "${qemu[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
# Show the guest's own output as it comes, not the boot log.
tail -n +1 -f --pid=$qpid "$log" | sed -n '/^krsi-guest: start/,$p' || true
wait $qpid || status=$?

if [[ $status -eq 124 ]]; then
	echo "run-guest: FAIL: guest did not finish within ${limit}s (log: $log)"
	exit 1
fi
splat='Kernel panic|Oops|BUG:|WARNING:|INFO: possible|INFO: task .* blocked|KASAN|UBSAN|kmemleak: [0-9]+ new suspected|general protection fault|Call Trace:|turning off the locking correctness validator|rcu: INFO'
# An allocation failure that fault injection forced dumps the stack
# (warn_alloc): expected, not a splat. Nothing else is dropped.
checked=$log
if grep -q 'FAULT_INJECTION: forcing a failure' "$log"; then
	checked=$log.checked
	awk '/(vmalloc error: |page allocation failure: )/ { skip = 1 }
		!skip { print } /<\/TASK>/ { skip = 0 }' "$log" >"$checked"
fi
if grep -Eq "$splat" "$checked"; then
	echo "run-guest: FAIL: kernel splat in the console log (log: $log):"
	grep -En "$splat" "$checked" | head -20
	exit 1
fi
rc=$(sed -n 's/^krsi-guest: exit \([0-9]*\).*/\1/p' "$log" | tail -1 | tr -d '\r')
if [[ -z $rc ]]; then
	echo "run-guest: FAIL: guest stopped before the command finished (log: $log)"
	exit 1
fi
exit "$rc"
