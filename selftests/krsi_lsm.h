/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the reliability tests read back from the kernel: the live-hooks view
 * of the series (securityfs bpf/live_hooks) and the number of BPF programs
 * and links alive system-wide.
 */
#ifndef __KRSI_LSM_H
#define __KRSI_LSM_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#define KRSI_LIVE_HOOKS "/sys/kernel/security/bpf/live_hooks"

/* Programs linked to @hook per live_hooks: >= 0, or -errno. */
static inline int krsi_live_count(const char *hook)
{
	char name[128];
	int cnt, ret = 0;
	FILE *f;

	f = fopen(KRSI_LIVE_HOOKS, "r");
	if (!f)
		return -errno;
	while (fscanf(f, "%127s %d", name, &cnt) == 2)
		if (!strcmp(name, hook))
			ret = cnt;
	fclose(f);
	return ret;
}

/* Number of BPF objects alive: @next is bpf_prog_get_next_id or
 * bpf_link_get_next_id.
 */
static inline int krsi_count_ids(int (*next)(__u32, __u32 *))
{
	__u32 id = 0;
	int n = 0;

	while (!next(id, &id))
		n++;
	return n;
}

static inline int krsi_nr_progs(void)
{
	return krsi_count_ids(bpf_prog_get_next_id);
}

static inline int krsi_nr_links(void)
{
	return krsi_count_ids(bpf_link_get_next_id);
}

/* Programs and links are freed after RCU grace periods: wait up to
 * @seconds for the counts to come back to @progs and @links. True if they
 * did.
 */
static inline bool krsi_wait_objects(int progs, int links, int seconds)
{
	int i;

	for (i = 0; i < seconds * 10; i++) {
		if (krsi_nr_progs() == progs && krsi_nr_links() == links)
			return true;
		usleep(100000);
	}
	return false;
}

static inline double krsi_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* __KRSI_LSM_H */
