// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for lsm_attach_churn: a deny program on file_mprotect and an
 * fentry program on its nop, bpf_lsm_file_mprotect(), both attached for the
 * whole run, and an allow-all LSM program on the same hook that a churn
 * thread attaches and detaches. Each attach and detach of the allow-all
 * program is an update of the nop's trampoline, and so a text patch of a
 * call site that the test's mprotect() calls run through: on stock 6.1 the
 * nop's ftrace site (modify_ftrace_direct_multi(), through ftrace's tmp_ops),
 * on the series the hook's static call in security.c.
 *
 * Only the test's own mprotect() calls on its page are denied: the churn
 * thread's malloc arena and stack are set up with mprotect() too, and
 * denying those would break the test rather than test the kernel.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM		1

/* Set before load: the test's tgid, its page, the iterations of the
 * fentry program's empty bpf_loop() (0: a call of bpf_loop() that loops
 * not at all).
 */
const volatile __u32 target_tgid;
const volatile __u64 page;
const volatile __u32 loop_iters;

__u64 denied;		/* by deny_mprotect */
__u64 allow_runs;	/* allow_mprotect ran on a call of the test */
__u64 fentry_runs;	/* trace_mprotect ran on a call of the test */

static __always_inline bool is_target(struct vm_area_struct *vma)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return false;
	return vma->vm_start == page;
}

/* Attached for the whole run: every call on the page must be denied. */
SEC("lsm/file_mprotect")
int BPF_PROG(deny_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	if (ret)
		return ret;
	if (!is_target(vma))
		return 0;
	__sync_fetch_and_add(&denied, 1);
	return -EPERM;
}

/* Attached and detached by the churn thread: allows everything. */
SEC("lsm/file_mprotect")
int BPF_PROG(allow_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	if (is_target(vma))
		__sync_fetch_and_add(&allow_runs, 1);
	return 0;
}

static int nothing(__u32 i, void *ctx)
{
	return 0;
}

/* Attached for the whole run: a tracing program on the nop that spends
 * loop_iters empty iterations in bpf_loop() on every call, so that the
 * calls stay a while inside the trampoline image.
 */
SEC("fentry/bpf_lsm_file_mprotect")
int BPF_PROG(trace_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	bpf_loop(loop_iters, nothing, NULL, 0);
	if (is_target(vma))
		__sync_fetch_and_add(&fentry_runs, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
