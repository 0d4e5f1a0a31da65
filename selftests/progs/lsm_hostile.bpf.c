// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for lsm_hostile, all left out of the load ("?") until a subtest
 * asks for them: inputs the kernel must refuse, or survive.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM	1

int target_tgid = 0;
int target_tid = 0;
__u64 user_addr = 0;
int entered = 0;
int left = 0;

/* file_permission is not in the sleepable set: the load must fail. */
SEC("?lsm.s/file_permission")
int BPF_PROG(sleepable_on_atomic_hook, struct file *file, int mask, int ret)
{
	return ret;
}

/* A global function: what an extension program would replace. */
__noinline int hostile_decide(int tgid)
{
	return tgid == target_tgid;
}

SEC("?lsm/file_mprotect")
int BPF_PROG(extendable, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	if (ret)
		return ret;
	return hostile_decide(bpf_get_current_pid_tgid() >> 32) ? -EPERM : 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jump SEC(".maps");

SEC("?lsm/file_mprotect")
int BPF_PROG(tail_caller, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	if (ret || (bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return ret;
	bpf_tail_call(ctx, &jump, 0);
	return 0;
}

/* Same hook: a legitimate tail call target. */
SEC("?lsm/file_mprotect")
int BPF_PROG(same_hook_callee, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	return -EPERM;
}

/* Void hook: its return value is never checked, 1 would reach mprotect. */
SEC("?lsm/file_free_security")
int BPF_PROG(void_hook_callee, struct file *file)
{
	return 1;
}

/* Another int hook: its arguments are not file_mprotect's. */
SEC("?lsm/inode_removexattr")
int BPF_PROG(other_hook_callee, struct user_namespace *mnt_userns,
	     struct dentry *dentry, const char *name, int ret)
{
	return -EPERM;
}

SEC("?lsm/file_alloc_security")
int BPF_PROG(attached_twice, struct file *file, int ret)
{
	return ret;
}

/* Sleeps in the hook: user_addr is a userfaultfd page nobody filled yet. */
SEC("?lsm.s/file_open")
int BPF_PROG(sleeper, struct file *file, int ret)
{
	int v;

	if (ret || (__u32)bpf_get_current_pid_tgid() != target_tid)
		return ret;
	entered++;
	bpf_copy_from_user(&v, sizeof(v), (void *)user_addr);
	left++;
	return -EPERM;
}

/* On sleeper's hook, attached before it so that it runs after it, from an
 * object of its own that is freed while sleeper sleeps.
 */
SEC("?lsm/file_open")
int BPF_PROG(behind, struct file *file, int ret)
{
	return 0;
}

SEC("?lsm/inode_removexattr")
int BPF_PROG(cycled, struct user_namespace *mnt_userns, struct dentry *dentry,
	     const char *name, int ret)
{
	return ret;
}

char _license[] SEC("license") = "GPL";
