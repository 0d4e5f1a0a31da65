// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for lsm_tramp_race: one deny program on file_mprotect, attached
 * for the whole run, and the programs that the churn threads attach and
 * detach beside it on the same nop, each of them an update of the nop's
 * trampoline: a second LSM program, an lsm_cgroup program (through its
 * shim), a plain fentry program and an fentry program that holds calls
 * inside the trampoline image.
 *
 * Only the test's own mprotect() calls on its pages are denied or slowed:
 * the threads' malloc arenas and stacks are set up with mprotect() too, and
 * denying those would break the test rather than test the kernel.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM		1

/* Set before load: the test's tgid, the range of its callers' pages, the
 * page whose calls hold_mprotect holds and for how long at most (0: not
 * at all).
 */
const volatile __u32 target_tgid;
const volatile __u64 page_lo;
const volatile __u64 page_hi;
const volatile __u64 hold_page;
const volatile __u64 hold_ns;

__u64 denied;		/* by deny_mprotect */
__u64 lsm_runs;		/* allow_mprotect ran */
__u64 cgroup_runs;	/* allow_cgroup ran */
__u64 fentry_runs;	/* trace_mprotect ran */
__u64 holds;		/* hold_mprotect held a call through two updates */
__u64 holds_cut;	/* ... or let it go at hold_ns */
__u64 updates;		/* trampoline updates completed, by user space */

static __always_inline bool is_target(struct vm_area_struct *vma)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return false;
	return vma->vm_start >= page_lo && vma->vm_start < page_hi;
}

/* Attached for the whole run: every call of the callers must be denied. */
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

/* Churn (a): a second LSM program on the same hook, allowing. */
SEC("lsm/file_mprotect")
int BPF_PROG(allow_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	if (is_target(vma))
		__sync_fetch_and_add(&lsm_runs, 1);
	return 0;
}

/* Churn (b): lsm_cgroup allows with 1; its shim joins the trampoline. */
SEC("lsm_cgroup/file_mprotect")
int BPF_PROG(allow_cgroup, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	if (is_target(vma))
		__sync_fetch_and_add(&cgroup_runs, 1);
	return 1;
}

/* Churn (c): a tracing program on the nop, doing next to nothing. */
SEC("fentry/bpf_lsm_file_mprotect")
int BPF_PROG(trace_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	if (is_target(vma))
		__sync_fetch_and_add(&fentry_runs, 1);
	return 0;
}

struct hold {
	__u64 updates;		/* leave once the count reaches this */
	__u64 deadline;		/* or at this time */
};

static int hold_on(__u32 i, void *ctx)
{
	struct hold *h = ctx;

	if (*(volatile __u64 *)&updates >= h->updates)
		return 1;
	return bpf_ktime_get_ns() >= h->deadline;
}

/* Churn (d): holds the calls on @hold_page inside the trampoline image,
 * before its call of the nop, until two more trampoline updates have
 * completed (the churn threads count them in @updates after each attach
 * and detach returned). The first update that completes either retired
 * the image the call is in or, if the call entered the image that update
 * installed, the second one retires it: either way the call then returns
 * from the nop into a retired image. (Nearly always: a churn thread counts
 * its update only once back in user space, so a count that lags can let
 * a call go before its image is retired; the call is then denied.)
 *
 * A spin of fixed length does not do that reliably: under TCG an update
 * takes some 50 ms, 20 to 30 ms of which (over 100 ms at worst) lie
 * between the switch to the new image and the retirement of the old one,
 * every text poke waiting for the other vCPU's time slice; on hardware
 * far less. Only one caller's calls are held: a held call keeps its CPU,
 * and the churn threads need one to make the updates it waits for.
 * Bounded by @hold_ns, for a kernel whose updates would wait for the call
 * to leave the image, and by the loop count.
 */
SEC("fentry/bpf_lsm_file_mprotect")
int BPF_PROG(hold_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	struct hold h;

	if (!hold_ns || !is_target(vma) || vma->vm_start != hold_page)
		return 0;
	h.updates = *(volatile __u64 *)&updates + 2;
	h.deadline = bpf_ktime_get_ns() + hold_ns;
	bpf_loop(1 << 23, hold_on, &h, 0);
	if (*(volatile __u64 *)&updates >= h.updates)
		__sync_fetch_and_add(&holds, 1);
	else
		__sync_fetch_and_add(&holds_cut, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
