// SPDX-License-Identifier: GPL-2.0
/*
 * mprotect_audit: an lsm/file_mprotect program counts this process's
 * mprotect() calls and denies none of them.
 *
 * One anonymous page is toggled between PROT_READ and PROT_READ|PROT_WRITE.
 * A single page always lies in a single VMA, so each mprotect() reaches
 * the hook exactly once.  Attached, NR_AUDITED calls must all succeed and
 * be counted exactly; before attach and after the link is destroyed,
 * NR_IGNORED calls must not be counted.  The round runs twice on the same
 * skeleton to catch state left behind by the first.
 */

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "krsi_test.h"
#include "mprotect_audit.skel.h"

#define ROUNDS		2
#define NR_AUDITED	100
#define NR_IGNORED	10

/* Toggle @page's protection @n times; 0, or -1 at the first failure. */
static int toggle(void *page, size_t size, int n, const char *what)
{
	int i, prot;

	for (i = 0; i < n; i++) {
		prot = i % 2 ? PROT_READ : PROT_READ | PROT_WRITE;
		if (!KRSI_CHECK_SYSCALL(what, mprotect(page, size, prot)))
			return -1;
	}
	return 0;
}

static int run_round(struct mprotect_audit *skel, void *page, size_t size)
{
	int err;

	skel->bss->mprotect_count = 0;

	/* Loaded and configured but not attached: nothing is counted. */
	if (toggle(page, size, NR_IGNORED, "mprotect() before attach") ||
	    !KRSI_CHECK_EQ("mprotect_count before attach", 0,
			   skel->bss->mprotect_count))
		return -1;

	err = mprotect_audit__attach(skel);
	if (!KRSI_CHECK_OK("mprotect_audit__attach", err))
		return -1;

	if (toggle(page, size, NR_AUDITED, "mprotect() while attached") ||
	    !KRSI_CHECK_EQ("mprotect_count while attached", NR_AUDITED,
			   skel->bss->mprotect_count))
		return -1;

	err = bpf_link__destroy(skel->links.audit_mprotect);
	skel->links.audit_mprotect = NULL;
	if (!KRSI_CHECK_OK("bpf_link__destroy", err))
		return -1;

	if (toggle(page, size, NR_IGNORED, "mprotect() after detach") ||
	    !KRSI_CHECK_EQ("mprotect_count after detach", NR_AUDITED,
			   skel->bss->mprotect_count))
		return -1;

	return 0;
}

int main(void)
{
	struct mprotect_audit *skel = NULL;
	void *page = MAP_FAILED;
	size_t size;
	int round;

	krsi_init();

	size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_PTR("mmap", page == MAP_FAILED ? NULL : page))
		goto out;

	skel = mprotect_audit__open_and_load();
	if (!KRSI_CHECK_PTR("mprotect_audit__open_and_load", skel))
		goto out;
	/* .bss is mmap()ed: this reaches the loaded program directly. */
	skel->bss->monitored_pid = getpid();

	for (round = 1; round <= ROUNDS; round++) {
		if (run_round(skel, page, size))
			break;
		krsi_note("round %d: %d mprotect() counted while attached, none before or after",
			  round, NR_AUDITED);
	}

out:
	mprotect_audit__destroy(skel);
	if (page != MAP_FAILED)
		munmap(page, size);
	return krsi_exit("mprotect_audit");
}
