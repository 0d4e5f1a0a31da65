// SPDX-License-Identifier: GPL-2.0
/* An extension that would turn lsm_hostile's "extendable" into allow-all. */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("freplace/hostile_decide")
int hostile_decide_ext(int tgid)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
