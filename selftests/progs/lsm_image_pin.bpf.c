// SPDX-License-Identifier: GPL-2.0
/* lsm_image_pin: an fexit program on vfs_read(), counting one process. */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int target_tgid = 0;
__u64 reads = 0;

SEC("fexit/vfs_read")
int BPF_PROG(count_read)
{
	if (target_tgid && bpf_get_current_pid_tgid() >> 32 == target_tgid)
		__sync_fetch_and_add(&reads, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
