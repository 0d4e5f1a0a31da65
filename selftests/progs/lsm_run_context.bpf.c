// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_run_context: a sleepable lsm.s/file_ioctl program that, on the test's
 * own ioctl command, copies eight bytes from the user address passed as the
 * ioctl's argument, a page that is not mapped yet: the copy has to fault
 * the page in, which it can only where the program runs preemptible.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int monitored_pid = 0;
unsigned int cmd = 0;		/* the test's ioctl command */
long copy_ret = 1;
__u64 copied = 0;
__u64 runs = 0;

SEC("lsm.s/file_ioctl")
int BPF_PROG(fault_in, struct file *file, unsigned int ioctl_cmd,
	     unsigned long arg, int ret)
{
	if ((bpf_get_current_pid_tgid() >> 32) != monitored_pid ||
	    ioctl_cmd != cmd)
		return 0;
	copy_ret = bpf_copy_from_user(&copied, sizeof(copied), (void *)arg);
	runs++;
	return 0;
}

char _license[] SEC("license") = "GPL";
