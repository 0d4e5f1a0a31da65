// SPDX-License-Identifier: GPL-2.0
/*
 * The pool of one lsm_random mutator: on each of three hooks an lsm/ deny
 * and allow program, an fentry and an fexit program on the hook's nop and
 * an lsm_cgroup deny and allow program. Only the probe threads' marker
 * calls are denied: an open() of the marker file, prctl(PRCTL_MARKER) and
 * mprotect() of the marker pages, all by the test's own process, so that
 * nothing else the test or the guest does (malloc arenas, thread stacks,
 * cgroup and bpffs files) is ever refused.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM		1
#define PRCTL_MARKER	0x4b525349	/* "KRSI", no prctl option */

/* Set before load by the test. */
const volatile __u32 target_tgid;
const volatile __u64 marker_ino;
const volatile __u32 marker_dev;	/* the kernel's dev_t of its sb */
const volatile __u64 page_lo;
const volatile __u64 page_hi;

__u64 tracing_runs;	/* fentry and fexit programs on marker calls */
__u64 denials;		/* by the lsm/ deny programs */

static __always_inline bool ours(void)
{
	return bpf_get_current_pid_tgid() >> 32 == target_tgid;
}

static __always_inline bool open_marked(struct file *file)
{
	return ours() && file->f_inode->i_ino == marker_ino &&
	       file->f_inode->i_sb->s_dev == marker_dev;
}

static __always_inline bool prctl_marked(int option)
{
	return ours() && option == PRCTL_MARKER;
}

static __always_inline bool mprotect_marked(struct vm_area_struct *vma)
{
	return ours() && vma->vm_start >= page_lo && vma->vm_start < page_hi;
}

#define PRCTL_ARGS int option, unsigned long arg2, unsigned long arg3, \
		   unsigned long arg4, unsigned long arg5
#define MPROTECT_ARGS struct vm_area_struct *vma, unsigned long reqprot, \
		      unsigned long prot

/*
 * The six programs of one hook. @marked is the test of the hook's marker
 * call. lsm/ programs deny with -EPERM; lsm_cgroup programs deny with 0
 * (the shim turns it into -EPERM) and allow with 1.
 */
#define HOOK_PROGS(hook, name, marked, ...)				\
SEC("lsm/" #hook)							\
int BPF_PROG(lsm_deny_##name, __VA_ARGS__, int ret)			\
{									\
	/* A branch of its own: "-(marked)" loses the verifier's range. */ \
	if (!(marked))							\
		return 0;						\
	__sync_fetch_and_add(&denials, 1);				\
	return -EPERM;							\
}									\
SEC("lsm/" #hook)							\
int BPF_PROG(lsm_allow_##name, __VA_ARGS__, int ret)			\
{									\
	return 0;							\
}									\
SEC("fentry/bpf_lsm_" #hook)						\
int BPF_PROG(fentry_##name, __VA_ARGS__)				\
{									\
	if (marked)							\
		__sync_fetch_and_add(&tracing_runs, 1);			\
	return 0;							\
}									\
SEC("fexit/bpf_lsm_" #hook)						\
int BPF_PROG(fexit_##name, __VA_ARGS__, int ret)			\
{									\
	if (marked)							\
		__sync_fetch_and_add(&tracing_runs, 1);			\
	return 0;							\
}									\
SEC("lsm_cgroup/" #hook)						\
int BPF_PROG(cg_deny_##name, __VA_ARGS__)				\
{									\
	return marked ? 0 : 1;						\
}									\
SEC("lsm_cgroup/" #hook)						\
int BPF_PROG(cg_allow_##name, __VA_ARGS__)				\
{									\
	return 1;							\
}

HOOK_PROGS(file_open, open, open_marked(file), struct file *file)
HOOK_PROGS(task_prctl, prctl, prctl_marked(option), PRCTL_ARGS)
HOOK_PROGS(file_mprotect, mprotect, mprotect_marked(vma), MPROTECT_ARGS)

char _license[] SEC("license") = "GPL";
