#!/bin/bash
# Boot a kernel under QEMU TCG with the host's / as its read-only root, run
# a command in it, keep the serial log, and fail on a kernel splat, on a
# guest that does not finish in time, or on the command's failure.
# usage: run-guest.sh [-i] <bzImage> <log> <timeout-s> <lsm> -- <command>...
#   -i: interactive (make vm): no timeout, no log checks.
# Extra kernel parameters come from $KRSI_CMDLINE, extra QEMU options from
# $KRSI_QEMU_OPTS, the accelerator from $KRSI_ACCEL, the CPU model from
# $KRSI_CPU (default max).
# With $KRSI_RESULTS naming a host file, the guest gets a second serial
# port writing to it, named to the guest's init as $KRSI_RESULTS
# (run-tests.sh writes its result lines there), and this script appends
# its own findings as result lines: each splat line as
# "not ok - kernel-log: <line>", a timeout, a guest that stopped before the
# command finished, a failed command that reported no failure; then
# "# <key>: <value>" lines: kernel, lsm, console-log, boot-seconds and
# guest-exit.
# With $KRSI_ARCH=arm64 the guest is qemu-system-aarch64 -M virt booting
# an arm64 Image with $KRSI_INITRD, the arm64 userland that
# scripts/build-initramfs.sh makes: its /krsi-init mounts the host's / and
# runs init.sh from there. The console is ttyAMA0, the results channel a
# virtio console (hvc0); everything else is the same.
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

case ${KRSI_ARCH:-x86_64} in
x86_64)
	cmdline="console=ttyS0 root=krsiroot rootfstype=9p ro"
	cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=1048576"
	results_dev=/dev/ttyS1 boot=(init="$init" --)
	qemu=(qemu-system-x86_64 -cpu "${KRSI_CPU:-max}")
	;;
arm64)
	[[ -r ${KRSI_INITRD:-} ]] || {
		echo "run-guest: KRSI_ARCH=arm64 needs KRSI_INITRD=<initramfs.cpio.gz>; build it with make initramfs ARCH=arm64" >&2
		exit 2
	}
	# pauth-impdef: QEMU's own pointer authentication, much faster
	# under TCG than the architected QARMA.
	cmdline="console=ttyAMA0"
	results_dev=/dev/hvc0 boot=(rdinit=/krsi-init -- "$init")
	qemu=(qemu-system-aarch64 -M virt -cpu "${KRSI_CPU:-max,pauth-impdef=on}" -initrd "$KRSI_INITRD")
	;;
*)
	echo "run-guest: KRSI_ARCH=$KRSI_ARCH is not supported; use KRSI_ARCH=arm64 or leave it unset (x86_64)" >&2
	exit 2
	;;
esac
cmdline+=" panic=-1 nokaslr norandmaps lsm=$lsm ${KRSI_CMDLINE:-}"
results=${KRSI_RESULTS:-}
[[ -z $results ]] || cmdline+=" KRSI_RESULTS=$results_dev"
cmdline+=" ${boot[*]} $*"

# shellcheck disable=SC2054 # the commas belong to QEMU's option values
qemu+=(-accel "${KRSI_ACCEL:-tcg,thread=single}" -smp 2 -m 4G
	-nographic -no-reboot -nodefaults -serial mon:stdio
	-fsdev local,id=krsiroot,path=/,readonly=on,security_model=none,multidevs=remap
	-device virtio-9p-pci,fsdev=krsiroot,mount_tag=krsiroot
	-kernel "$image" -append "$cmdline")
# shellcheck disable=SC2206 # word splitting of the extra options is wanted
qemu+=(${KRSI_QEMU_OPTS:-})
if [[ -n $results ]]; then
	mkdir -p "$(dirname "$results")"
	: >"$results"
	if [[ ${KRSI_ARCH:-x86_64} == arm64 ]]; then
		# shellcheck disable=SC2054
		qemu+=(-chardev "file,id=krsiresults,path=$results" -device virtio-serial-pci
			-device virtconsole,chardev=krsiresults)
	else
		qemu+=(-serial "file:$results")
	fi
fi

if [[ $interactive -eq 1 ]]; then
	exec "${qemu[@]}"
fi

finding() { # <line>: a result line of the host, when results are kept
	[[ -z $results ]] || echo "$1" >>"$results"
}

status=0
: >"$log"
start=$SECONDS
timeout --foreground "$limit" "${qemu[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
# Show the guest's own output as it comes, not the boot log.
tail -n +1 -f --pid=$qpid "$log" | sed -n '/^krsi-guest: start/,$p' || true
wait $qpid || status=$?
if [[ -n $results ]]; then
	sed -i 's/\r$//' "$results"
	# A guest stopped mid-line must not glue a finding to its line.
	[[ ! -s $results || -z $(tail -c 1 "$results") ]] || echo >>"$results"
fi

verdict=0
if [[ $status -eq 124 ]]; then
	echo "run-guest: FAIL: guest did not finish within ${limit}s (log: $log)"
	finding "not ok - guest-timeout # no exit within ${limit}s"
	verdict=1
fi
# "Call trace:" is arm64's stack dump, x86's says "Call Trace:".
splat='Kernel panic|Oops|BUG:|WARNING:|INFO: possible|INFO: task .* blocked|KASAN|UBSAN|kmemleak: [0-9]+ new suspected|general protection fault|Call [Tt]race:|turning off the locking correctness validator|rcu: INFO'
# An allocation failure that fault injection forced dumps the stack
# (warn_alloc): expected, not a splat. Nothing else is dropped.
checked=$log
if grep -q 'FAULT_INJECTION: forcing a failure' "$log"; then
	checked=$log.checked
	awk '/(vmalloc error: |page allocation failure: )/ { skip = 1 }
		!skip { print } /<\/TASK>/ { skip = 0 }' "$log" >"$checked"
fi
if grep -Eq "$splat" "$checked"; then
	# Findings first, then the console: nothing may stop them. Each
	# names its console line; no "#", which would start a KTAP directive.
	while IFS= read -r line; do
		line=${line//#/ }
		finding "not ok - kernel-log: line ${line%%:*}: ${line#*:}"
	done < <(tr -d '\r' <"$checked" | grep -En -m 20 "$splat" |
		sed 's/^\([0-9]*\):\[ *[0-9.]*\] /\1:/')
	echo "run-guest: FAIL: kernel splat in the console log (log: $log):"
	grep -En -m 20 "$splat" "$checked" || true
	verdict=1
fi
rc=$(sed -n 's/^krsi-guest: exit \([0-9]*\).*/\1/p' "$log" | tail -1 | tr -d '\r')
if [[ -z $rc ]]; then
	[[ $status -eq 124 ]] || {
		echo "run-guest: FAIL: guest stopped before the command finished (log: $log)"
		finding "not ok - guest-exit # stopped before the command finished"
	}
	rc=1
elif [[ $rc -ne 0 && -n $results ]] && ! grep -q '^not ok ' "$results"; then
	finding "not ok - guest-exit # the command failed (status $rc) without a failed test"
fi
finding "# kernel: $image"
finding "# lsm: $lsm"
finding "# console-log: $log"
finding "# boot-seconds: $((SECONDS - start))"
finding "# guest-exit: ${rc}"
[[ $verdict -eq 0 ]] || exit 1
exit "$rc"
