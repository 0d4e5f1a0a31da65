/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LSM program that lsm_fail_nth and lsm_detach_fail attach and detach:
 * deny the file allocations of one thread while target_tid is set.
 */
#ifndef __DENY_FILE_ALLOC_BPF_H
#define __DENY_FILE_ALLOC_BPF_H

#ifndef EPERM
#define EPERM	1
#endif

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

#endif /* __DENY_FILE_ALLOC_BPF_H */
