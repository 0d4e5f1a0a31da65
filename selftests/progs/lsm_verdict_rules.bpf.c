// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for lsm_verdict_rules, all left out of the load ("?") until a
 * subtest asks for them. Each acts only for the test process and its
 * children (target_tgid, set before the load) and otherwise passes the
 * verdict on unchanged, so the rest of the guest is unaffected.
 *
 * Every program counts its runs for the test and records when, on a
 * counter shared by all of them, it last ran: the test checks that the
 * program attached second ran first, which its subtest relies on.
 */

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM		1
#define ENOSYS		38
#define ENOPARAM	519

/* The test's tgid; the option of prctl() the prctl programs act on. */
const volatile int target_tgid = 0;
const volatile int target_option = 0;
int seq = 0;
int deny_runs = 0, deny_seq = 0;
int allow_runs = 0, allow_seq = 0;
int default_runs = 0, default_seq = 0;
int cgroup_runs = 0, cgroup_seq = 0;

/* The test process or one of its children (subtests 7 and 8 fork). */
static __always_inline bool ours(void)
{
	struct task_struct *task;

	if ((bpf_get_current_pid_tgid() >> 32) == target_tgid)
		return true;
	task = (struct task_struct *)bpf_get_current_task();
	return BPF_CORE_READ(task, real_parent, tgid) == target_tgid;
}

/* Plain increments: only the test's single thread (or one child at a
 * time) gets past ours(), and clang 14's default BPF CPU has no fetch-add.
 */
static __always_inline void ran(int *runs, int *at)
{
	(*runs)++;
	seq++;
	*at = seq;
}

#define PRCTL_ARGS int option, unsigned long arg2, unsigned long arg3, \
		   unsigned long arg4, unsigned long arg5, int ret

/* A: denies target_option. */
SEC("?lsm/task_prctl")
int BPF_PROG(prctl_deny, PRCTL_ARGS)
{
	if (option != target_option || !ours())
		return ret;
	ran(&deny_runs, &deny_seq);
	return -EPERM;
}

/* B: allows target_option; must not undo a denial. */
SEC("?lsm/task_prctl")
int BPF_PROG(prctl_allow, PRCTL_ARGS)
{
	if (option != target_option || !ours())
		return ret;
	ran(&allow_runs, &allow_seq);
	return 0;
}

/* B': returns the hook's default, -ENOSYS ("not handled"). */
SEC("?lsm/task_prctl")
int BPF_PROG(prctl_default, PRCTL_ARGS)
{
	if (option != target_option || !ours())
		return ret;
	ran(&default_runs, &default_seq);
	return -ENOSYS;
}

/* lsm_cgroup's "allow" (1): its shim returns 0 to the trampoline. */
SEC("?lsm_cgroup/task_prctl")
int BPF_PROG(prctl_cgroup_allow, PRCTL_ARGS)
{
	if (option == target_option && ours())
		ran(&cgroup_runs, &cgroup_seq);
	return 1;
}

#define FSPARAM_ARGS struct fs_context *fc, struct fs_parameter *param, int ret

SEC("?lsm/fs_context_parse_param")
int BPF_PROG(fsparam_deny, FSPARAM_ARGS)
{
	if (!ours())
		return ret;
	ran(&deny_runs, &deny_seq);
	return -EPERM;
}

SEC("?lsm/fs_context_parse_param")
int BPF_PROG(fsparam_allow, FSPARAM_ARGS)
{
	if (!ours())
		return ret;
	ran(&allow_runs, &allow_seq);
	return 0;
}

/* The hook's default: -ENOPARAM ("not my option"). */
SEC("?lsm/fs_context_parse_param")
int BPF_PROG(fsparam_default, FSPARAM_ARGS)
{
	if (!ours())
		return ret;
	ran(&default_runs, &default_seq);
	return -ENOPARAM;
}

#define MPROTECT_ARGS struct vm_area_struct *vma, unsigned long reqprot, \
		      unsigned long prot, int ret

/* bpf_set_retval() of a value that is no errno: refused at load. A
 * positive one would leave the hook as its result; a 0 would undo the
 * denial of an lsm_cgroup program that ran before in the same shim.
 */
SEC("?lsm_cgroup/file_mprotect")
int BPF_PROG(cgroup_retval_positive, MPROTECT_ARGS)
{
	bpf_set_retval(0x10000);
	return 1;
}

SEC("?lsm_cgroup/file_mprotect")
int BPF_PROG(cgroup_retval_zero, MPROTECT_ARGS)
{
	bpf_set_retval(0);
	return 1;
}

char _license[] SEC("license") = "GPL";
