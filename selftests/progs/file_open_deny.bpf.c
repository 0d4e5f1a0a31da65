// SPDX-License-Identifier: GPL-2.0
/*
 * Deny open() of the one file the loader chose, identified by inode number
 * and superblock device, and count the denials.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

/* Set by the loader before attach; an inode number of 0 never matches. */
__u64 target_ino = 0;
__u32 target_dev = 0;	/* kernel dev_t (major << 20 | minor), as s_dev */

__u64 deny_count = 0;

SEC("lsm/file_open")
int BPF_PROG(deny_open, struct file *file, int ret)
{
	struct inode *inode;

	/* Keep the verdict of a program that ran before this one. */
	if (ret)
		return ret;
	if (!target_ino)
		return 0;

	inode = file->f_inode;
	if (inode->i_ino != target_ino || inode->i_sb->s_dev != target_dev)
		return 0;

	__sync_fetch_and_add(&deny_count, 1);
	return -EPERM;
}

char _license[] SEC("license") = "GPL";
