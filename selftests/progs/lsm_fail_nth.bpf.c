// SPDX-License-Identifier: GPL-2.0
/* lsm_fail_nth: deny file allocations of one thread while target_tid is set. */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM	1

int target_tid = 0;
__u64 denied = 0;

SEC("lsm/file_alloc_security")
int BPF_PROG(deny_target, struct file *file, int ret)
{
	if (ret || !target_tid ||
	    (__u32)bpf_get_current_pid_tgid() != target_tid)
		return ret;
	denied++;
	return -EPERM;
}

char _license[] SEC("license") = "GPL";
