// SPDX-License-Identifier: GPL-2.0
/*
 * The program of lsm_sleepable_noreturn: a sleepable fentry program on the
 * exit_group syscall stub, which never returns, counting the calls of the
 * test's child (target_tgid, which the child sets).
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* As SYS_PREFIX of the upstream selftests' bpf_misc.h. */
#if defined(__TARGET_ARCH_x86)
#define SYS_PREFIX	"__x64_"
#elif defined(__TARGET_ARCH_arm64)
#define SYS_PREFIX	"__arm64_"
#else
#error "no syscall stub prefix for this architecture"
#endif

int target_tgid = 0;
int runs = 0;

SEC("fentry.s/" SYS_PREFIX "sys_exit_group")
int BPF_PROG(exit_group_entry)
{
	if (target_tgid && (bpf_get_current_pid_tgid() >> 32) == target_tgid)
		runs++;
	return 0;
}

char _license[] SEC("license") = "GPL";
