#!/bin/bash
# Guest side of scripts/hook-breakdown.py, run by selftests/guest/init.sh:
# make BPF symbols visible in /proc/kallsyms, then run mprotect_loop, under
# bench_attach (an allow-all lsm/file_mprotect program) unless "none".
# Once the program is attached, print the [bpf] lines of /proc/kallsyms
# (the trampoline image, the JITed program) as "breakdown-ksym: " lines.
# usage: guest-breakdown.sh <bench_attach|none> <mprotect_loop> <marker> <n>
set -euo pipefail

if [[ ${1:-} == --attached ]]; then
	shift
	grep -F '[bpf]' /proc/kallsyms | sed 's/^/breakdown-ksym: /' || true
	exec "$@"
fi
if [[ $# -ne 4 ]]; then
	echo "usage: guest-breakdown.sh <bench_attach|none> <mprotect_loop> <marker> <n>" >&2
	exit 2
fi
attach=$1
shift
echo 0 >/proc/sys/kernel/kptr_restrict
echo 1 >/proc/sys/net/core/bpf_jit_kallsyms
echo "breakdown-env: kernel=$(uname -r) lsm=$(cat /sys/kernel/security/lsm)" \
	"cpus=$(nproc) program=$([[ $attach == none ]] && echo none || echo lsm/file_mprotect)"
if [[ $attach == none ]]; then
	exec "$0" --attached "$@"
fi
exec "$attach" file_mprotect -- "$0" --attached "$@"
