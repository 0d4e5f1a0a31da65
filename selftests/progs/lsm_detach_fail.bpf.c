// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_detach_fail: deny file allocations of one thread while target_tid is
 * set (the LSM program whose link the test closes), and fail the nth slab
 * allocation of the thread fail_tid (fmod_ret on should_failslab(), the
 * fault point of failslab): fail-nth for kernels without
 * CONFIG_FAULT_INJECTION.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "deny_file_alloc.bpf.h"

#define ENOMEM	12

int fail_tid = 0;
int fail_nth = 0;
int seen = 0;
int injected = 0;

SEC("fmod_ret/should_failslab")
int BPF_PROG(fail_nth_slab, struct kmem_cache *s, gfp_t gfpflags, int ret)
{
	if (ret || !fail_tid || (__u32)bpf_get_current_pid_tgid() != fail_tid)
		return ret;
	if (++seen != fail_nth)
		return 0;
	injected = 1;
	return -ENOMEM;
}

char _license[] SEC("license") = "GPL";
