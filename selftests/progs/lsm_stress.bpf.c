// SPDX-License-Identifier: GPL-2.0
/*
 * Deny programs for lsm_stress: each denies its hook to the threads that
 * registered for it in @victims and counts every denial, so the test can
 * match them one to one against the EPERMs its threads saw.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM		1
#define NR_HOOKS	3

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);	/* thread id */
	__type(value, __u32);	/* the hook it hammers */
} victims SEC(".maps");

__u64 denied[NR_HOOKS];

static __always_inline int deny_victim(__u32 hook)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 *want = bpf_map_lookup_elem(&victims, &tid);

	if (!want || *want != hook || hook >= NR_HOOKS)
		return 0;
	__sync_fetch_and_add(&denied[hook], 1);
	return -EPERM;
}

SEC("lsm/file_mprotect")
int BPF_PROG(deny_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	if (ret)
		return ret;
	return deny_victim(0);
}

SEC("lsm/inode_removexattr")
int BPF_PROG(deny_removexattr, struct user_namespace *mnt_userns,
	     struct dentry *dentry, const char *name, int ret)
{
	if (ret)
		return ret;
	return deny_victim(1);
}

SEC("lsm/file_alloc_security")
int BPF_PROG(deny_file_alloc, struct file *file, int ret)
{
	if (ret)
		return ret;
	return deny_victim(2);
}

char _license[] SEC("license") = "GPL";
