// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_nop_body: an lsm/file_mprotect program that counts this process's
 * calls and denies them when told to, a kprobe inside the body of the nop
 * bpf_lsm_file_mprotect() (after its ftrace site), and an fexit program on
 * the nop that records the value the trampoline saw the nop return.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

int monitored_pid = 0;
int deny = 0;
__u64 lsm_runs = 0, body_runs = 0, fexit_runs = 0;
long fexit_ret = 0x7fffffff;

static __always_inline bool mine(void)
{
	return monitored_pid && (bpf_get_current_pid_tgid() >> 32) == monitored_pid;
}

SEC("lsm/file_mprotect")
int BPF_PROG(policy, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	if (!mine())
		return 0;
	__sync_fetch_and_add(&lsm_runs, 1);
	return deny ? -EPERM : 0;
}

/* Attached by the test at an offset past the nop's ftrace site. */
SEC("kprobe")
int body(struct pt_regs *regs)
{
	if (mine())
		__sync_fetch_and_add(&body_runs, 1);
	return 0;
}

SEC("fexit/bpf_lsm_file_mprotect")
int BPF_PROG(nop_exit, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	if (mine()) {
		__sync_fetch_and_add(&fexit_runs, 1);
		fexit_ret = ret;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
