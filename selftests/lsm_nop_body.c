// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_nop_body: with only LSM programs on an int hook, the trampoline image
 * returns their verdict without running the body of the nop; an fexit
 * program on the nop makes the image call the body again, and see its
 * return value, the hook's default (0 for file_mprotect).
 *
 * A kprobe past the nop's ftrace site counts the calls of its body. With
 * the allow-all policy program attached, NR_CALLS mprotect() calls must run
 * the program NR_CALLS times and the body never; with an fexit program too,
 * the body NR_CALLS times and the fexit program as often, seeing 0; with
 * the fexit program detached, the body never again. A denying policy must
 * deny either way. x86-64 only: the offset of the body is that of an x86
 * nop (after ENDBR64, if any, and the 5-byte ftrace site).
 */

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_nop_body.skel.h"

#define NR_CALLS	50
#define NOP		"bpf_lsm_file_mprotect"

/* mprotect() @page @n times; the number of calls that failed with @err. */
static int toggle(void *page, size_t size, int n, int err)
{
	int i, hits = 0;

	for (i = 0; i < n; i++)
		if ((mprotect(page, size, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE) ? errno : 0) == err)
			hits++;
	return hits;
}

/* A kprobe on the first instruction of the nop's body: after ENDBR64 and
 * the ftrace site, or after the ftrace site alone. An offset that is not
 * an instruction boundary of the nop fails to attach.
 */
static struct bpf_link *attach_body(struct lsm_nop_body *skel)
{
	static const size_t offsets[] = { 9, 5 };
	LIBBPF_OPTS(bpf_kprobe_opts, opts);
	struct bpf_link *link;
	size_t i;

	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		opts.offset = offsets[i];
		link = bpf_program__attach_kprobe_opts(skel->progs.body, NOP, &opts);
		if (link) {
			krsi_note("kprobe at %s+%zu", NOP, offsets[i]);
			return link;
		}
	}
	krsi_fail(__FILE__, __LINE__, "no kprobe past the ftrace site of %s (offsets 9, 5)", NOP);
	return NULL;
}

int main(void)
{
	struct bpf_link *body = NULL, *policy = NULL, *fexit = NULL;
	struct lsm_nop_body *skel;
	struct krsi_mark mark0;
	size_t size;
	void *page;

	krsi_init();
#ifndef __x86_64__
	krsi_skip("the offset of the nop's body is known on x86-64 only");
	return krsi_exit("lsm_nop_body");
#endif
	size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_PTR("mmap", page == MAP_FAILED ? NULL : page))
		return krsi_exit("lsm_nop_body");
	mark0 = krsi_mark_objects();
	skel = lsm_nop_body__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_nop_body__open_and_load", skel))
		goto out;
	skel->bss->monitored_pid = getpid();

	body = attach_body(skel);
	policy = bpf_program__attach(skel->progs.policy);
	if (!body || !KRSI_CHECK_PTR("attach the policy program", policy))
		goto out;

	/* LSM programs only: the image returns the verdict itself. */
	KRSI_CHECK_EQ("mprotect() calls allowed", NR_CALLS, toggle(page, size, NR_CALLS, 0));
	KRSI_CHECK_EQ("policy runs", NR_CALLS, skel->bss->lsm_runs);
	KRSI_CHECK_EQ("nop body runs with LSM programs only", 0, skel->bss->body_runs);
	skel->bss->deny = 1;
	KRSI_CHECK_EQ("mprotect() calls denied", NR_CALLS, toggle(page, size, NR_CALLS, EPERM));
	KRSI_CHECK_EQ("nop body runs with LSM programs only, denying", 0, skel->bss->body_runs);
	skel->bss->deny = 0;

	/* An fexit program wants the nop's return value: the body runs. */
	fexit = bpf_program__attach(skel->progs.nop_exit);
	if (!KRSI_CHECK_PTR("attach the fexit program", fexit))
		goto out;
	KRSI_CHECK_EQ("mprotect() calls allowed with fexit", NR_CALLS,
		      toggle(page, size, NR_CALLS, 0));
	KRSI_CHECK_EQ("nop body runs with an fexit program", NR_CALLS, skel->bss->body_runs);
	KRSI_CHECK_EQ("fexit runs", NR_CALLS, skel->bss->fexit_runs);
	KRSI_CHECK_EQ("fexit saw the nop's return value", 0, skel->data->fexit_ret);
	skel->bss->deny = 1;
	KRSI_CHECK_EQ("mprotect() calls denied with fexit", NR_CALLS,
		      toggle(page, size, NR_CALLS, EPERM));
	KRSI_CHECK_EQ("fexit saw the denial", -EPERM, skel->data->fexit_ret);
	KRSI_CHECK_EQ("nop body skipped on a denial", NR_CALLS, skel->bss->body_runs);
	skel->bss->deny = 0;

	bpf_link__destroy(fexit);
	fexit = NULL;
	KRSI_CHECK_EQ("mprotect() calls allowed after the fexit detach", NR_CALLS,
		      toggle(page, size, NR_CALLS, 0));
	KRSI_CHECK_EQ("nop body runs after the fexit detach", NR_CALLS, skel->bss->body_runs);
	KRSI_CHECK_EQ("policy runs in all", 5 * NR_CALLS, skel->bss->lsm_runs);
out:
	bpf_link__destroy(fexit);
	bpf_link__destroy(policy);
	bpf_link__destroy(body);
	lsm_nop_body__destroy(skel);
	munmap(page, size);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_nop_body");
}
