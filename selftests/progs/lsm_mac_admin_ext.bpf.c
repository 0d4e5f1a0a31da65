// SPDX-License-Identifier: GPL-2.0
/* Extensions that would turn lsm_mac_admin's deny_mprotect and fmod_deny
 * into allow-all; each test loads one of them.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("?freplace/mac_admin_decide")
int mac_admin_decide_ext(int tgid)
{
	return 0;
}

SEC("?freplace/mac_admin_fmod_decide")
int mac_admin_fmod_decide_ext(int tgid)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
