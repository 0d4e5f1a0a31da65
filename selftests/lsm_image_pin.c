// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_image_pin: a retired trampoline image that calls its function must
 * not keep its programs for as long as a caller blocks in the function.
 * A child blocks in read() on a pipe, entered through the image of an
 * fexit program on vfs_read(); the program is detached and its last fd
 * closed. Its fexit part is skipped for that read anyway, so the program
 * must be freed within the RCU grace periods of a detach (10 s here),
 * while the child is still blocked, as on stock 6.1: only the image waits
 * for the read. The time it took is printed.
 */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_image_pin.skel.h"

#define LIMIT_S		10

/* True once @pid sleeps (state S) in read(). */
static bool blocked_in_read(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		ok = p && p[1] == ' ' && p[2] == 'S';
	}
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			ok &= !strcmp(buf, "pipe_read");
		fclose(f);
	}
	return ok;
}

static bool prog_alive(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		return errno != ENOENT;
	close(fd);
	return true;
}

int main(void)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct lsm_image_pin *skel;
	struct krsi_mark mark0;
	int pipefd[2], status, i, err;
	double start, secs = -1;
	pid_t child;
	char c;

	krsi_init();
	mark0 = krsi_mark_objects();
	skel = lsm_image_pin__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_image_pin__open_and_load", skel))
		return krsi_exit("lsm_image_pin");
	if (!KRSI_CHECK_OK("bpf_prog_get_info_by_fd",
			   bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.count_read),
						  &info, &len)))
		goto out_destroy;
	err = lsm_image_pin__attach(skel);
	if (krsi_skip_no_direct_calls(-err) ||
	    !KRSI_CHECK_OK("lsm_image_pin__attach", err) ||
	    !KRSI_CHECK_SYSCALL("pipe", pipe(pipefd)))
		goto out_destroy;

	child = fork();
	if (!KRSI_CHECK_SYSCALL("fork", child))
		goto out_destroy;
	if (!child) {
		/* Hold no fd of the program, its link or its maps. */
		for (i = 3; i < 1024; i++)
			if (i != pipefd[0])
				close(i);
		_exit(read(pipefd[0], &c, 1) == 1 ? 0 : 1);
	}
	close(pipefd[0]);
	skel->bss->target_tgid = child;
	for (i = 0; i < 100 && !blocked_in_read(child); i++)
		usleep(100000);
	if (!KRSI_CHECK_EQ("child blocked in pipe_read()", 1, blocked_in_read(child)))
		goto out_child;

	/* Detach and drop every reference the test holds. */
	lsm_image_pin__destroy(skel);
	skel = NULL;
	start = krsi_now();
	while (krsi_now() - start < LIMIT_S) {
		if (!prog_alive(info.id)) {
			secs = krsi_now() - start;
			break;
		}
		usleep(50000);
	}
	KRSI_CHECK_EQ("child still blocked in read() during the check", 1,
		      blocked_in_read(child));
	if (secs < 0)
		krsi_fail(__FILE__, __LINE__,
			  "detached fexit/vfs_read program (id %u) still alive %d s after its detach, while a reader blocks in vfs_read()",
			  info.id, LIMIT_S);
	else
		krsi_note("detached fexit/vfs_read program freed %.2f s after its detach, reader still blocked",
			  secs);

out_child:
	if (write(pipefd[1], "x", 1) != 1)
		kill(child, SIGKILL);
	close(pipefd[1]);
	KRSI_CHECK_SYSCALL("waitpid", waitpid(child, &status, 0));
	KRSI_CHECK_EQ("child's read() returned a byte", 1,
		      WIFEXITED(status) && WEXITSTATUS(status) == 0);
out_destroy:
	lsm_image_pin__destroy(skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_image_pin");
}
