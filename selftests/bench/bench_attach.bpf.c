// SPDX-License-Identifier: GPL-2.0
/*
 * Allow-all BPF LSM programs for the benchmark: each returns 0 at once, so
 * what is measured is the cost of having a program on the hook at all.
 * bench_attach loads and attaches only the one named on its command line.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("lsm/file_mprotect")
int BPF_PROG(allow_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot, int ret)
{
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(allow_open, struct file *file, int ret)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
