// SPDX-License-Identifier: GPL-2.0
/*
 * Audit only: count the mprotect() calls of one process, never deny one.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Set by the loader before attach; 0 matches no process. */
int monitored_pid = 0;

__u64 mprotect_count = 0;

SEC("lsm/file_mprotect")
int BPF_PROG(audit_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	int tgid = bpf_get_current_pid_tgid() >> 32;

	if (monitored_pid && tgid == monitored_pid)
		__sync_fetch_and_add(&mprotect_count, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
