// SPDX-License-Identifier: GPL-2.0
/*
 * file_open_deny: an lsm/file_open program denies open() of one file, and
 * only that file, while its link exists.
 *
 * Two files are created in the current directory; the program is told the
 * inode number and device of one of them.  Attached, opening that file must
 * fail with EPERM and count one denial, and the other file must open.
 * With the link destroyed the file must open again without counting.  The
 * attach/deny/detach round runs twice on the same skeleton to catch state
 * left behind by the first.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "krsi_test.h"
#include "file_open_deny.skel.h"

#define ROUNDS	2

struct test_file {
	char path[64];
	struct stat st;
	bool created;
};

static int create_file(struct test_file *f, const char *role)
{
	int fd, err;

	snprintf(f->path, sizeof(f->path), "krsi-file-open-%s.%d", role,
		 (int)getpid());
	fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (!KRSI_CHECK_SYSCALL("create test file", fd))
		return -1;
	f->created = true;
	err = fstat(fd, &f->st);
	close(fd);
	if (!KRSI_CHECK_SYSCALL("fstat test file", err))
		return -1;
	return 0;
}

/* 0 if @path opens read-only, else the errno of the failed open(). */
static int try_open(const char *path)
{
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* The kernel's internal dev_t (MINORBITS 20), as in super_block.s_dev. */
static __u32 kernel_dev(dev_t dev)
{
	return (major(dev) << 20) | minor(dev);
}

static int run_round(struct file_open_deny *skel,
		     const struct test_file *target,
		     const struct test_file *other)
{
	int err;

	skel->bss->deny_count = 0;

	/* Loaded and configured but not attached: nothing is denied. */
	if (!KRSI_CHECK_ERRNO("open(target) before attach", 0,
			      try_open(target->path)))
		return -1;

	err = file_open_deny__attach(skel);
	if (!KRSI_CHECK_OK("file_open_deny__attach", err))
		return -1;

	if (!KRSI_CHECK_ERRNO("open(target) while attached",
			      krsi_forced_failure("file_open_deny") ? EACCES : EPERM,
			      try_open(target->path)) ||
	    !KRSI_CHECK_EQ("deny_count after denied open", 1,
			   skel->bss->deny_count))
		return -1;

	if (!KRSI_CHECK_ERRNO("open(other) while attached", 0,
			      try_open(other->path)) ||
	    !KRSI_CHECK_EQ("deny_count after allowed open", 1,
			   skel->bss->deny_count))
		return -1;

	err = bpf_link__destroy(skel->links.deny_open);
	skel->links.deny_open = NULL;
	if (!KRSI_CHECK_OK("bpf_link__destroy", err))
		return -1;

	if (!KRSI_CHECK_ERRNO("open(target) after detach", 0,
			      try_open(target->path)) ||
	    !KRSI_CHECK_EQ("deny_count after detach", 1,
			   skel->bss->deny_count))
		return -1;

	return 0;
}

int main(void)
{
	struct test_file target = {}, other = {};
	struct file_open_deny *skel = NULL;
	int round;

	krsi_init();

	if (create_file(&target, "target") || create_file(&other, "other"))
		goto out;

	skel = file_open_deny__open_and_load();
	if (!KRSI_CHECK_PTR("file_open_deny__open_and_load", skel))
		goto out;
	/* .bss is mmap()ed: these reach the loaded program directly. */
	skel->bss->target_ino = target.st.st_ino;
	skel->bss->target_dev = kernel_dev(target.st.st_dev);

	for (round = 1; round <= ROUNDS; round++) {
		if (run_round(skel, &target, &other))
			break;
		krsi_note("round %d: target denied once, other opened, target opens after detach",
			  round);
	}

out:
	file_open_deny__destroy(skel);
	if (target.created)
		unlink(target.path);
	if (other.created)
		unlink(other.path);
	return krsi_exit("file_open_deny");
}
