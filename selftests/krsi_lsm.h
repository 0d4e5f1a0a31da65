/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the reliability tests read back from the kernel: the live-hooks view
 * of the series (securityfs bpf/live_hooks) and the number of BPF programs
 * and links alive system-wide.
 */
#ifndef __KRSI_LSM_H
#define __KRSI_LSM_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "krsi_test.h"

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

/* The BPF objects a test created are those with an ID above the highest ID
 * alive when it started: IDs are allocated cyclically, so a new program or
 * link always gets a higher ID than any before it. Counting every object
 * alive instead would blame a test for the programs of an earlier one going
 * away under it: a retired trampoline image holds its programs until RCU
 * tasks grace periods after the last call left it.
 */
struct krsi_mark {
	__u32 prog_id;
	__u32 link_id;
};

/* Highest ID alive of @next's kind (bpf_prog_get_next_id or
 * bpf_link_get_next_id), 0 if none.
 */
static inline __u32 krsi_last_id(int (*next)(__u32, __u32 *))
{
	__u32 id = 0, last = 0;

	while (!next(id, &id))
		last = id;
	return last;
}

/* Number of objects of @next's kind alive with an ID above @after. */
static inline int krsi_count_ids_after(int (*next)(__u32, __u32 *), __u32 after)
{
	__u32 id = after;
	int n = 0;

	while (!next(id, &id))
		n++;
	return n;
}

static inline struct krsi_mark krsi_mark_objects(void)
{
	struct krsi_mark m = {
		.prog_id = krsi_last_id(bpf_prog_get_next_id),
		.link_id = krsi_last_id(bpf_link_get_next_id),
	};

	return m;
}

/* Programs created since @m and still alive. */
static inline int krsi_new_progs(const struct krsi_mark *m)
{
	return krsi_count_ids_after(bpf_prog_get_next_id, m->prog_id);
}

/* Links created since @m and still alive. */
static inline int krsi_new_links(const struct krsi_mark *m)
{
	return krsi_count_ids_after(bpf_link_get_next_id, m->link_id);
}

/* Programs and links are freed after RCU grace periods: wait up to
 * @seconds for the objects created since @m to come back to @progs and
 * @links. True if they did.
 */
static inline bool krsi_wait_objects(const struct krsi_mark *m, int progs,
				     int links, int seconds)
{
	int i;

	for (i = 0; i < seconds * 10; i++) {
		if (krsi_new_progs(m) == progs && krsi_new_links(m) == links)
			return true;
		usleep(100000);
	}
	return false;
}

/* Fail the test (krsi_test.h) unless the programs and links created since
 * @m are gone within 10 s. True if they are.
 */
#define KRSI_CHECK_OBJECTS_FREED(m)						\
	(krsi_wait_objects(m, 0, 0, 10) ||					\
	 (krsi_fail(__FILE__, __LINE__,						\
		    "programs/links created by the test still alive: %d/%d",	\
		    krsi_new_progs(m), krsi_new_links(m)), false))

/* Attached through @fd to @hook: the hook is live, an open() by this
 * thread fails with EPERM from a program that denies the thread in
 * *@target_tid and counts its denials in *@denied; then @fd is closed and
 * the hook is dark. True if all of it held; each failure is reported as
 * @what.
 */
static inline bool krsi_check_denies_then_detaches(int fd, const char *hook,
						   const char *what,
						   volatile int *target_tid,
						   volatile __u64 *denied)
{
	__u64 before = *denied;
	int probe, err;
	bool ok = true;

	ok &= KRSI_CHECK_EQ(what, 1, krsi_live_count(hook));
	*target_tid = syscall(SYS_gettid);
	probe = open("/dev/null", O_RDONLY | O_CLOEXEC);
	err = probe < 0 ? errno : 0;
	*target_tid = 0;
	if (probe >= 0)
		close(probe);
	ok &= KRSI_CHECK_ERRNO(what, EPERM, err);
	ok &= KRSI_CHECK_EQ(what, before + 1, *denied);
	close(fd);
	ok &= KRSI_CHECK_EQ(what, 0, krsi_live_count(hook));
	return ok;
}

/* The BTF id of vmlinux function @func, or 0 after a failed check. */
static inline __u32 krsi_vmlinux_btf_id(const char *func)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id;

	if (!KRSI_CHECK_PTR("btf__load_vmlinux_btf", vmlinux))
		return 0;
	id = btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (id <= 0) {
		krsi_fail(__FILE__, __LINE__, "no BTF id for %s (%d)", func, id);
		return 0;
	}
	return id;
}

/* Load @cnt instructions as the LSM program @name on the hook of BTF id
 * @id, the verifier's log in @log (@size bytes): its fd, or -errno.
 */
static inline int krsi_load_lsm_insns(int id, const char *name,
				      const struct bpf_insn *insns, unsigned int cnt,
				      char *log, size_t size)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_LSM_MAC,
		    .attach_btf_id = id,
		    .log_buf = log,
		    .log_size = size,
		    .log_level = 1);

	log[0] = 0;
	return bpf_prog_load(BPF_PROG_TYPE_LSM, name, "GPL", insns, cnt, &opts);
}

static inline double krsi_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* __KRSI_LSM_H */
