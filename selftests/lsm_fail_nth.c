// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_fail_nth: for n = 1, 2, ... make the nth fault point (failslab) of
 * the attach syscall fail, through BPF_LINK_CREATE and through
 * BPF_RAW_TRACEPOINT_OPEN, until an attach sees no injected fault. After
 * every failed attach: the error is ENOMEM, the hook is not live, no link
 * was left behind, and an attach without injection works and denies. An
 * attach that succeeded despite a fault must work the same. Then the
 * detach: for n = 1, 2, ... the nth fault point of the close() of the
 * hook's last link fails, until a close sees no injected fault. After
 * each, the hook is dark, no link is left, and a new attach works and
 * denies (a trampoline freed while the call site still called its image
 * made every later attach fail with EBUSY). Needs CONFIG_FAULT_INJECTION,
 * CONFIG_FAILSLAB and debugfs (make check-debug).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_fail_nth.skel.h"

#define HOOK		"file_alloc_security"
#define MAX_NTH		1000
#define FAILSLAB	"/sys/kernel/debug/failslab/"

static struct lsm_fail_nth *skel;
static int nth_fd, prog_fd;
static unsigned long injected_total;

static bool write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, val, strlen(val)) == (ssize_t)strlen(val);

	if (fd >= 0)
		close(fd);
	return ok;
}

static bool arm(int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", n);
	return pwrite(nth_fd, buf, strlen(buf), 0) == (ssize_t)strlen(buf);
}

/* Whether the armed fault was injected; disarms it. */
static bool disarm(void)
{
	char buf[16] = "";
	bool injected;

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return false;
	injected = atoi(buf) == 0;
	pwrite(nth_fd, "0", 1, 0);
	return injected;
}

static int attach(bool link_create)
{
	if (link_create)
		return bpf_link_create(prog_fd, 0, BPF_LSM_MAC, NULL);
	return bpf_raw_tracepoint_open(NULL, prog_fd);
}

/* Attached through @fd: live, denies, then detached and dark. */
static bool works(int fd, const char *what)
{
	return krsi_check_denies_then_detaches(fd, HOOK, what, &skel->bss->target_tid,
					       &skel->bss->denied);
}

static void sweep(bool link_create)
{
	const char *how = link_create ? "BPF_LINK_CREATE" : "BPF_RAW_TRACEPOINT_OPEN";
	int n, fd, err, faults = 0;
	struct krsi_mark mark;
	bool injected;
	char what[96];

	for (n = 1; n <= MAX_NTH; n++) {
		snprintf(what, sizeof(what), "%s, fault %d", how, n);
		mark = krsi_mark_objects();
		if (!arm(n)) {
			krsi_fail(__FILE__, __LINE__, "arming fail-nth: %s", strerror(errno));
			return;
		}
		fd = attach(link_create);
		err = fd < 0 ? errno : 0;
		injected = disarm();
		faults += injected;
		if (fd >= 0) {
			if (!works(fd, what))
				return;
			if (!injected)
				break;
			continue;
		}
		if (!KRSI_CHECK_EQ(what, 1, injected) ||
		    !KRSI_CHECK_ERRNO(what, ENOMEM, err) ||
		    !KRSI_CHECK_EQ(what, 0, krsi_live_count(HOOK)) ||
		    !KRSI_CHECK_EQ(what, 0, krsi_new_links(&mark)))
			return;
		fd = attach(link_create);
		if (!KRSI_CHECK_SYSCALL(what, fd) || !works(fd, what))
			return;
	}
	if (n > MAX_NTH)
		krsi_fail(__FILE__, __LINE__, "%s: still injecting at %d", how, n);
	krsi_note("%s: %d fault points, %d faults injected, each followed by a working attach",
		  how, n - 1, faults);
	injected_total += faults;
}

/* Fail the nth fault point of the close of the hook's only link. */
static void sweep_detach(void)
{
	int n, fd, faults = 0;
	struct krsi_mark mark;
	bool injected;
	char what[96];

	for (n = 1; n <= MAX_NTH; n++) {
		snprintf(what, sizeof(what), "close of the last link, fault %d", n);
		mark = krsi_mark_objects();
		fd = attach(true);
		if (!KRSI_CHECK_ERRNO(what, 0, fd < 0 ? errno : 0) ||
		    !KRSI_CHECK_EQ(what, 1, krsi_live_count(HOOK)))
			return;
		if (!arm(n)) {
			krsi_fail(__FILE__, __LINE__, "arming fail-nth: %s", strerror(errno));
			return;
		}
		close(fd);
		injected = disarm();
		faults += injected;
		if (!KRSI_CHECK_EQ(what, 0, krsi_live_count(HOOK)) ||
		    !KRSI_CHECK_EQ(what, 0, krsi_new_links(&mark)))
			return;
		snprintf(what, sizeof(what),
			 "attach after a close with fault %d", n);
		fd = attach(true);
		if (!KRSI_CHECK_ERRNO(what, 0, fd < 0 ? errno : 0) ||
		    !works(fd, what))
			return;
		if (!injected)
			break;
	}
	if (n > MAX_NTH)
		krsi_fail(__FILE__, __LINE__, "close: still injecting at %d", n);
	krsi_note("close of the last link: %d fault points, %d faults injected, each followed by a working attach",
		  n - 1, faults);
	injected_total += faults;
}

int main(void)
{
	struct krsi_mark mark0;

	krsi_init();
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0) {
		krsi_skip("no /proc/thread-self/fail-nth: CONFIG_FAULT_INJECTION is off");
		return krsi_exit("lsm_fail_nth");
	}
	/* failslab skips sleeping allocations by default: the attach path has
	 * only those.
	 */
	if (!write_file(FAILSLAB "ignore-gfp-wait", "N") ||
	    !write_file(FAILSLAB "verbose", "1")) {
		krsi_fail(__FILE__, __LINE__, "cannot set %s: %s", FAILSLAB, strerror(errno));
		return krsi_exit("lsm_fail_nth");
	}
	mark0 = krsi_mark_objects();
	skel = lsm_fail_nth__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_fail_nth__open_and_load", skel))
		return krsi_exit("lsm_fail_nth");
	prog_fd = bpf_program__fd(skel->progs.deny_target);

	sweep(true);
	sweep(false);
	sweep_detach();
	krsi_note("%lu faults injected in all", injected_total);

	lsm_fail_nth__destroy(skel);
	write_file(FAILSLAB "ignore-gfp-wait", "Y");
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_fail_nth");
}
