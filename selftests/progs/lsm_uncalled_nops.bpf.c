// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_uncalled_nops: an fentry program on each nop that security.c has no
 * call site for, counting the calls of one process. Loaded one at a time.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int target_tgid = 0;
__u64 calls[10] = {};

#define COUNT(idx)							\
	do {								\
		if (target_tgid &&					\
		    bpf_get_current_pid_tgid() >> 32 == target_tgid)	\
			__sync_fetch_and_add(&calls[idx], 1);		\
	} while (0)

#define NOP_PROG(idx, hook)						\
SEC("fentry/bpf_lsm_" #hook)						\
int BPF_PROG(hook)							\
{									\
	COUNT(idx);							\
	return 0;							\
}

NOP_PROG(0, vm_enough_memory)
NOP_PROG(1, getprocattr)
NOP_PROG(2, setprocattr)
NOP_PROG(3, inode_getsecurity)
NOP_PROG(4, inode_copy_up_xattr)
NOP_PROG(5, dentry_init_security)
NOP_PROG(6, inode_setsecurity)
NOP_PROG(7, secid_to_secctx)
NOP_PROG(8, inode_getsecctx)
NOP_PROG(9, xfrm_state_pol_flow_match)

char _license[] SEC("license") = "GPL";
