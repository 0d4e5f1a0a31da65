// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_sleepable_noreturn: no program may outlive its last link because a
 * task left the kernel through the function without returning. A
 * trampoline image that calls its function (fexit, fmod_ret, and sleepable
 * fentry programs, so that a call sleeping in one holds the image) holds
 * a reference on itself until the function returns; exit_group never
 * does, so a sleepable fentry program on the exit_group syscall stub that
 * any task ran through would pin its retired image, and the image its
 * programs, forever.
 *
 * The kernel must either refuse the program at load time (EINVAL, with
 * "__noreturn" in the verifier's log: the 6.12 series), or, if it attaches
 * it (6.1, whose fentry.s images do not call the function), free it within
 * 10 s of its link and fd being closed after a child ran exit_group()
 * through it. Skipped where no trampoline attaches at a function's entry
 * (arm64 before 6.4).
 */

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_sleepable_noreturn.skel.h"

#define WAIT_S		10
#define NORETURN_LOG	"__noreturn"

static char log_buf[1 << 20];

/* lsm_sleepable_noreturn loaded, the verifier's log in log_buf: 0 or a
 * negative errno in *@err.
 */
static struct lsm_sleepable_noreturn *load(int *err)
{
	struct lsm_sleepable_noreturn *skel = lsm_sleepable_noreturn__open();

	if (!KRSI_CHECK_PTR("lsm_sleepable_noreturn__open", skel))
		return NULL;
	log_buf[0] = 0;
	bpf_program__set_log_buf(skel->progs.exit_group_entry, log_buf, sizeof(log_buf));
	*err = lsm_sleepable_noreturn__load(skel);
	return skel;
}

/* The load of the exit_group program failed with @err: it must have been
 * refused for the function's being __noreturn.
 */
static void check_refused_at_load(int err)
{
	if (!KRSI_CHECK_ERRNO("load of fentry.s on the exit_group stub", EINVAL, -err))
		return;
	if (!strstr(log_buf, NORETURN_LOG)) {
		krsi_fail(__FILE__, __LINE__,
			  "load of fentry.s on the exit_group stub refused without \"%s\" in the log:\n%s",
			  NORETURN_LOG, log_buf);
		return;
	}
	krsi_note("fentry.s on the exit_group stub refused at load: __noreturn");
}

/* Wait up to WAIT_S for program @id to be freed: seconds, or -1. */
static double wait_prog_freed(__u32 id)
{
	double start = krsi_now();
	int fd;

	while (krsi_now() - start < WAIT_S) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0 && errno == ENOENT)
			return krsi_now() - start;
		if (fd < 0) {
			krsi_fail(__FILE__, __LINE__, "bpf_prog_get_fd_by_id(%u) (expected success or ENOENT, got errno %d: %s)",
				  id, errno, strerror(errno));
			return -1;
		}
		close(fd);
		usleep(100000);
	}
	krsi_fail(__FILE__, __LINE__,
		  "program %u still alive %d s after its link and fd were closed: a child's exit_group() through its image pins it",
		  id, WAIT_S);
	return -1;
}

/* The exit_group program attached as @link: a child exits through it, and
 * the program must go once @link and @skel are.
 */
static void exit_through(struct lsm_sleepable_noreturn *skel, struct bpf_link *link)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int status = 0;
	double secs;
	pid_t pid;

	if (!KRSI_CHECK_OK("bpf_obj_get_info_by_fd",
			   bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.exit_group_entry),
						  &info, &len))) {
		bpf_link__destroy(link);
		lsm_sleepable_noreturn__destroy(skel);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		skel->bss->target_tgid = getpid();
		syscall(SYS_exit_group, 0);
		_exit(1);
	}
	if (KRSI_CHECK_SYSCALL("fork", pid) &&
	    KRSI_CHECK_SYSCALL("waitpid", waitpid(pid, &status, 0))) {
		KRSI_CHECK_EQ("the child's exit_group(0) status", 0,
			      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		KRSI_CHECK_EQ("runs of the program for the child's exit_group()", 1,
			      skel->bss->runs);
	}
	bpf_link__destroy(link);
	lsm_sleepable_noreturn__destroy(skel);

	secs = wait_prog_freed(info.id);
	if (secs >= 0)
		krsi_note("program %u freed %.2f s after its link and fd were closed",
			  info.id, secs);
}

int main(void)
{
	struct lsm_sleepable_noreturn *skel;
	struct krsi_mark mark0;
	struct bpf_link *link;
	int err;

	krsi_init();
	mark0 = krsi_mark_objects();
	skel = load(&err);
	if (!skel)
		return krsi_exit("lsm_sleepable_noreturn");
	if (err) {
		check_refused_at_load(err);
		lsm_sleepable_noreturn__destroy(skel);
	} else {
		link = bpf_program__attach(skel->progs.exit_group_entry);
		err = link ? 0 : errno;
		if (err) {
			lsm_sleepable_noreturn__destroy(skel);
			if (!krsi_skip_no_direct_calls(err))
				KRSI_CHECK_ERRNO("attach of fentry.s on the exit_group stub", 0, err);
		} else {
			exit_through(skel, link);
		}
	}
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_sleepable_noreturn");
}
