// SPDX-License-Identifier: GPL-2.0
/* An extension that would turn lsm_mac_admin's deny_mprotect into allow-all. */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("freplace/mac_admin_decide")
int mac_admin_decide_ext(int tgid)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
