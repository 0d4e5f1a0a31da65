// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_image_sleep: two sleepable LSM programs on a void hook
 * (inode_post_setxattr), and two on an int hook (inode_setxattr), each of
 * which sleeps in bpf_copy_from_user() on its own userfaultfd page when
 * the test's thread target_tid sets an xattr; a fentry program on each
 * hook's nop, attached to retire their trampoline image; and one on
 * another nop, whose detach retires an image that no call is in.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int target_tid = 0;
__u64 page_a = 0, page_b = 0;
int a_runs = 0, b_runs = 0;

/* For target_tid: read a byte of @page, sleeping until the test fills it,
 * and count the run in @runs.
 */
static __always_inline void sleep_on(__u64 page, int *runs)
{
	char c;

	if (target_tid && (__u32)bpf_get_current_pid_tgid() == target_tid &&
	    !bpf_copy_from_user(&c, 1, (void *)page))
		(*runs)++;
}

SEC("lsm.s/inode_post_setxattr")
int BPF_PROG(sleep_a)
{
	sleep_on(page_a, &a_runs);
	return 0;
}

SEC("lsm.s/inode_post_setxattr")
int BPF_PROG(sleep_b)
{
	sleep_on(page_b, &b_runs);
	return 0;
}

SEC("fentry/bpf_lsm_inode_post_setxattr")
int BPF_PROG(retire)
{
	return 0;
}

SEC("lsm.s/inode_setxattr")
int BPF_PROG(int_sleep_a)
{
	sleep_on(page_a, &a_runs);
	return 0;
}

SEC("lsm.s/inode_setxattr")
int BPF_PROG(int_sleep_b)
{
	sleep_on(page_b, &b_runs);
	return 0;
}

SEC("fentry/bpf_lsm_inode_setxattr")
int BPF_PROG(int_retire)
{
	return 0;
}

SEC("fentry/bpf_lsm_sb_pivotroot")
int BPF_PROG(witness)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
