// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_run_context: LSM programs that cannot sleep run with preemption
 * disabled (migration only on PREEMPT_RT); a sleepable program must still
 * run preemptible, or it could not fault a user page in.
 *
 * A sleepable lsm.s/file_ioctl program copies eight bytes, on an ioctl()
 * of the test's own command, from a fresh shared mapping of a memfd passed
 * as its argument, whose page is in the page cache but not yet
 * in this process's page tables (checked in /proc/self/pagemap before each
 * call): the copy takes a page fault, which fails with EFAULT where
 * preemption is disabled. NR_CALLS calls, each on a fresh mapping, must all
 * copy the memfd's marker.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_run_context.skel.h"

#define NR_CALLS	5
#define MARKER		0x6b72736970616765ULL
#define CMD		_IOR('K', 0x5a, uint64_t)

/* 1 if @addr is mapped in this process's page tables, 0 if not, -1 on error. */
static int page_present(int pagemap, const void *addr, size_t size)
{
	uint64_t entry;
	off_t off = (uintptr_t)addr / size * sizeof(entry);

	if (pread(pagemap, &entry, sizeof(entry), off) != sizeof(entry))
		return -1;
	return !!(entry & (1ULL << 63));
}

int main(void)
{
	struct bpf_link *link = NULL;
	struct lsm_run_context *skel;
	struct krsi_mark mark0;
	int memfd, pagemap, i, copied = 0;
	uint64_t marker = MARKER;
	size_t size;

	krsi_init();
	size = sysconf(_SC_PAGESIZE);
	memfd = memfd_create("lsm_run_context", 0);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (!KRSI_CHECK_SYSCALL("memfd_create", memfd) ||
	    !KRSI_CHECK_SYSCALL("open /proc/self/pagemap", pagemap) ||
	    !KRSI_CHECK_SYSCALL("ftruncate", ftruncate(memfd, size)) ||
	    !KRSI_CHECK_EQ("write the marker", (long)sizeof(marker),
			   (long)pwrite(memfd, &marker, sizeof(marker), 0)))
		return krsi_exit("lsm_run_context");

	mark0 = krsi_mark_objects();
	skel = lsm_run_context__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_run_context__open_and_load", skel))
		goto out;
	skel->bss->monitored_pid = getpid();
	skel->bss->cmd = CMD;
	link = bpf_program__attach(skel->progs.fault_in);
	if (!KRSI_CHECK_PTR("attach the lsm.s/file_ioctl program", link))
		goto out;

	for (i = 0; i < NR_CALLS; i++) {
		void *src = mmap(NULL, size, PROT_READ, MAP_SHARED, memfd, 0);

		if (!KRSI_CHECK_PTR("mmap the memfd", src == MAP_FAILED ? NULL : src))
			break;
		skel->data->copy_ret = 1;
		skel->bss->copied = 0;
		if (KRSI_CHECK_EQ("the memfd's page is not mapped before the call", 0,
				  page_present(pagemap, src, size)) &&
		    KRSI_CHECK_ERRNO("ioctl() of an unknown command", ENOTTY,
				     ioctl(memfd, CMD, src) ? errno : 0) &&
		    KRSI_CHECK_EQ("bpf_copy_from_user() of a page it faults in", 0,
				  skel->data->copy_ret) &&
		    KRSI_CHECK_EQ("the bytes copied", (long long)MARKER,
				  (long long)skel->bss->copied))
			copied++;
		munmap(src, size);
	}
	KRSI_CHECK_EQ("calls that faulted the page in", NR_CALLS, copied);
	KRSI_CHECK_EQ("program runs", NR_CALLS, (int)skel->bss->runs);
out:
	bpf_link__destroy(link);
	lsm_run_context__destroy(skel);
	close(pagemap);
	close(memfd);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_run_context");
}
