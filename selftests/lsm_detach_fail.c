// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_detach_fail: for n = 1, 2, ... the nth slab allocation of the close()
 * of the last link of a hook fails (an fmod_ret program on
 * should_failslab(), failslab's fault point, so that it runs on kernels
 * without CONFIG_FAULT_INJECTION; lsm_fail_nth does the same through
 * /proc/thread-self/fail-nth on the debug kernel), until a close sees no
 * injected fault. After each: the hook is dark, no link is left, and a new
 * attach works and denies. A detach that failed for want of memory used to
 * leave the hook's call site pointing at the image of a freed trampoline:
 * every later attach failed with EBUSY, after a kernel warning.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_detach_fail.skel.h"

#define HOOK		"file_alloc_security"
#define MAX_NTH		200

static struct lsm_detach_fail *skel;
static int prog_fd;

/* Attached through @fd: live, denies, then detached and dark. */
static bool works(int fd, const char *what)
{
	return krsi_check_denies_then_detaches(fd, HOOK, what, &skel->bss->target_tid,
					       &skel->bss->denied);
}

int main(void)
{
	struct krsi_mark mark0, mark;
	struct bpf_link *inject;
	int n, fd, faults = 0;
	char what[96];

	krsi_init();
	mark0 = krsi_mark_objects();
	skel = lsm_detach_fail__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_detach_fail__open_and_load", skel))
		return krsi_exit("lsm_detach_fail");
	prog_fd = bpf_program__fd(skel->progs.deny_target);
	inject = bpf_program__attach(skel->progs.fail_nth_slab);
	if (!inject && krsi_skip_no_direct_calls(errno))
		goto out;
	if (!KRSI_CHECK_PTR("attach fmod_ret/should_failslab", inject))
		goto out;

	for (n = 1; n <= MAX_NTH; n++) {
		snprintf(what, sizeof(what), "close of the last link, fault %d", n);
		mark = krsi_mark_objects();
		fd = bpf_link_create(prog_fd, 0, BPF_LSM_MAC, NULL);
		if (!KRSI_CHECK_ERRNO(what, 0, fd < 0 ? errno : 0) ||
		    !KRSI_CHECK_EQ(what, 1, krsi_live_count(HOOK)))
			break;
		skel->bss->seen = 0;
		skel->bss->injected = 0;
		skel->bss->fail_nth = n;
		skel->bss->fail_tid = syscall(SYS_gettid);
		close(fd);
		skel->bss->fail_tid = 0;
		faults += skel->bss->injected;
		if (!KRSI_CHECK_EQ(what, 0, krsi_live_count(HOOK)) ||
		    !KRSI_CHECK_EQ(what, 0, krsi_new_links(&mark)))
			break;
		snprintf(what, sizeof(what), "attach after a close with fault %d", n);
		fd = bpf_link_create(prog_fd, 0, BPF_LSM_MAC, NULL);
		if (!KRSI_CHECK_ERRNO(what, 0, fd < 0 ? errno : 0) ||
		    !works(fd, what))
			break;
		if (!skel->bss->injected)
			break;
	}
	if (n > MAX_NTH)
		krsi_fail(__FILE__, __LINE__, "close: still injecting at %d", n);
	krsi_note("close of the last link: %d slab allocations, %d faults injected",
		  skel->bss->injected ? n : n - 1, faults);
	bpf_link__destroy(inject);
out:
	lsm_detach_fail__destroy(skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_detach_fail");
}
