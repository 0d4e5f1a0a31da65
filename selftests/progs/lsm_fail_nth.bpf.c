// SPDX-License-Identifier: GPL-2.0
/* lsm_fail_nth: deny file allocations of one thread while target_tid is set. */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "deny_file_alloc.bpf.h"

char _license[] SEC("license") = "GPL";
