// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for lsm_mac_admin: one policy per way of setting or removing MAC
 * policy, each acting only on the test's own process (target_tgid), so the
 * children that try the operations without CAP_MAC_ADMIN, and everything
 * else in the guest, are never denied.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM	1

const volatile int target_tgid = 0;

static __always_inline bool is_target(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

/* A global function: what the extension of freplace_lsm would replace. */
__noinline int mac_admin_decide(int tgid)
{
	return tgid == target_tgid;
}

/* link_create_lsm, raw_tp_open_lsm; target of the extension. */
SEC("lsm/file_mprotect")
int BPF_PROG(deny_mprotect, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	if (ret)
		return ret;
	return mac_admin_decide(bpf_get_current_pid_tgid() >> 32) ? -EPERM : 0;
}

/* lsm_cgroup programs: 1 allows, 0 denies (-EPERM). */
SEC("lsm_cgroup/file_mprotect")
int BPF_PROG(deny_cg, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot)
{
	return is_target() ? 0 : 1;
}

SEC("lsm_cgroup/file_mprotect")
int BPF_PROG(allow_cg, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot)
{
	return 1;
}

/* What the extension of freplace_fmod_ret_security would replace. */
__noinline int mac_admin_fmod_decide(int tgid)
{
	return tgid == target_tgid;
}

/* Not an LSM program, but it decides security_file_mprotect()'s result. */
SEC("fmod_ret/security_file_mprotect")
int BPF_PROG(fmod_deny, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	return mac_admin_fmod_decide(bpf_get_current_pid_tgid() >> 32) ?
	       -EPERM : ret;
}

/* The policy of tail_main is whatever jmp_table[0] holds: an empty slot
 * denies.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jmp_table SEC(".maps");

SEC("lsm/file_mprotect")
int BPF_PROG(tail_main, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	if (ret || !is_target())
		return ret;
	bpf_tail_call(ctx, &jmp_table, 0);
	return -EPERM;
}

SEC("lsm/file_mprotect")
int BPF_PROG(tail_deny, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	return -EPERM;
}

SEC("lsm/file_mprotect")
int BPF_PROG(tail_allow, struct vm_area_struct *vma, unsigned long reqprot,
	     unsigned long prot, int ret)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
