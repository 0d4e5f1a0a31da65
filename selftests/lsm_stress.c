// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_stress [seconds]: three threads attach and detach deny programs on
 * file_mprotect, inode_removexattr and file_alloc_security in a loop while
 * three other threads make the syscalls behind those hooks.
 *
 * Each hook has a sequence number that its attacher bumps before and after
 * every attach and every detach: seq % 4 is 0 while detached, 1 while
 * attaching, 2 while attached, 3 while detaching. A syscall that read the
 * same seq before and after it ran entirely inside one state, so it must
 * be denied (2) or allowed (0). The programs count their denials, which
 * must equal the EPERMs the threads saw. At the end nothing may be denied,
 * no hook may be live, and the program and link counts are back where
 * they started. Bounded by time (default 20 s) and by MAX_CYCLES per hook.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_stress.skel.h"

#define NR_HOOKS	3
#define MIN_CYCLES	3
#define MAX_CYCLES	100000
#define NR_AFTER	100
#define XATTR_FILE	"/tmp/lsm_stress.xattr"
#define XATTR_NAME	"trusted.krsi_stress"

static const char *const hook_names[NR_HOOKS] = {
	"file_mprotect", "inode_removexattr", "file_alloc_security",
};

struct hook {
	struct bpf_program *prog;
	atomic_uint seq;
	atomic_bool stop;
	unsigned long cycles;		/* attach+detach pairs */
	unsigned long ops;		/* syscalls made */
	unsigned long in_attached;	/* ... entirely while attached */
	unsigned long in_detached;	/* ... entirely while detached */
	unsigned long eperm;		/* ... that failed with EPERM */
	unsigned long bad;		/* invariant violations */
	int attach_err;
	pthread_t attacher, hammer;
};

static struct lsm_stress *skel;
static struct hook hooks[NR_HOOKS];
static void *page;
static long page_size;

/* The syscall behind hook @h: 0 when allowed, else the errno. */
static int hook_op(int h, unsigned long i)
{
	int fd;

	switch (h) {
	case 0:
		if (mprotect(page, page_size, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE))
			return errno;
		return 0;
	case 1:
		/* The attribute never exists: ENODATA is the allowed outcome. */
		if (!removexattr(XATTR_FILE, XATTR_NAME))
			return EEXIST;
		return errno == ENODATA ? 0 : errno;
	default:
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
}

/* How long a state lasts, in us: long enough for syscalls to fit in it
 * on a debug kernel under TCG (a removexattr takes milliseconds there),
 * short beside an attach or a detach (a tenth of a second and more).
 */
static unsigned int dwell(unsigned int *r)
{
	return 5000 + rand_r(r) % 20000;
}

static void *attacher(void *arg)
{
	struct hook *hk = arg;
	unsigned int r = (unsigned int)(hk - hooks) + 1;
	struct bpf_link *link;

	while (!atomic_load(&hk->stop) && hk->cycles < MAX_CYCLES) {
		atomic_fetch_add(&hk->seq, 1);
		link = bpf_program__attach_lsm(hk->prog);
		if (!link) {
			hk->attach_err = errno;
			break;
		}
		atomic_fetch_add(&hk->seq, 1);
		usleep(dwell(&r));
		atomic_fetch_add(&hk->seq, 1);
		bpf_link__destroy(link);
		atomic_fetch_add(&hk->seq, 1);
		hk->cycles++;
		usleep(dwell(&r));
	}
	return NULL;
}

static void *hammer(void *arg)
{
	struct hook *hk = arg;
	__u32 h = hk - hooks, tid = syscall(SYS_gettid);
	unsigned int s1, s2;
	int err;

	if (bpf_map__update_elem(skel->maps.victims, &tid, sizeof(tid),
				 &h, sizeof(h), BPF_ANY)) {
		hk->bad++;
		return NULL;
	}
	while (!atomic_load(&hk->stop)) {
		s1 = atomic_load(&hk->seq);
		err = hook_op(h, hk->ops);
		s2 = atomic_load(&hk->seq);
		hk->ops++;
		if (err == EPERM)
			hk->eperm++;
		if (s1 != s2)
			continue;
		if (s1 % 4 == 2) {
			hk->in_attached++;
			if (err != EPERM && hk->bad++ < 5)
				krsi_note("%s: %s while attached", hook_names[h],
					  err ? strerror(err) : "allowed");
		} else if (s1 % 4 == 0) {
			hk->in_detached++;
			if (err && hk->bad++ < 5)
				krsi_note("%s: %s while detached", hook_names[h],
					  strerror(err));
		}
	}
	return NULL;
}

static bool run(int seconds)
{
	double start = krsi_now(), end = start + seconds;
	bool ok = true;
	int h;

	for (h = 0; h < NR_HOOKS; h++) {
		if (pthread_create(&hooks[h].hammer, NULL, hammer, &hooks[h]) ||
		    pthread_create(&hooks[h].attacher, NULL, attacher, &hooks[h])) {
			krsi_fail(__FILE__, __LINE__, "pthread_create failed");
			exit(KSFT_FAIL);
		}
	}
	while (krsi_now() < end) {
		for (h = 0; h < NR_HOOKS; h++)
			if (hooks[h].cycles >= MAX_CYCLES || hooks[h].attach_err)
				end = 0;
		usleep(100000);
	}
	for (h = 0; h < NR_HOOKS; h++)
		atomic_store(&hooks[h].stop, true);
	for (h = 0; h < NR_HOOKS; h++) {
		pthread_join(hooks[h].attacher, NULL);
		pthread_join(hooks[h].hammer, NULL);
	}
	krsi_note("ran %.1f s", krsi_now() - start);

	for (h = 0; h < NR_HOOKS; h++) {
		struct hook *hk = &hooks[h];

		krsi_note("%s: %lu attach/detach cycles, %lu syscalls, %lu entirely attached, %lu entirely detached, %lu EPERM, %llu denials by the program",
			  hook_names[h], hk->cycles, hk->ops, hk->in_attached,
			  hk->in_detached, hk->eperm,
			  (unsigned long long)skel->bss->denied[h]);
		ok &= KRSI_CHECK_ERRNO("attach", 0, hk->attach_err);
		ok &= KRSI_CHECK_EQ("invariant violations", 0, hk->bad);
		ok &= KRSI_CHECK_EQ("EPERMs seen = denials by the program",
				    skel->bss->denied[h], hk->eperm);
		/* A run that never tested both states proves nothing. */
		if (!hk->in_attached || !hk->in_detached || hk->cycles < MIN_CYCLES) {
			krsi_fail(__FILE__, __LINE__,
				  "%s: too few cycles or checked syscalls",
				  hook_names[h]);
			ok = false;
		}
	}
	return ok;
}

/* Everything detached: nothing denied, every hook dark. */
static bool check_after(void)
{
	bool ok = true;
	int h, i, err;

	for (h = 0; h < NR_HOOKS; h++) {
		for (i = 0; i < NR_AFTER; i++) {
			err = hook_op(h, i);
			if (!KRSI_CHECK_ERRNO(hook_names[h], 0, err)) {
				ok = false;
				break;
			}
		}
		ok &= KRSI_CHECK_EQ(hook_names[h], 0, krsi_live_count(hook_names[h]));
	}
	return ok;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 20;
	struct krsi_mark mark0;
	int fd;

	krsi_init();
	if (seconds <= 0) {
		fprintf(stderr, "usage: lsm_stress [seconds > 0]\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_SYSCALL("mmap", page == MAP_FAILED ? -1 : 0))
		return krsi_exit("lsm_stress");
	fd = open(XATTR_FILE, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (!KRSI_CHECK_SYSCALL("create " XATTR_FILE, fd))
		return krsi_exit("lsm_stress");
	close(fd);

	mark0 = krsi_mark_objects();
	skel = lsm_stress__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_stress__open_and_load", skel))
		return krsi_exit("lsm_stress");
	hooks[0].prog = skel->progs.deny_mprotect;
	hooks[1].prog = skel->progs.deny_removexattr;
	hooks[2].prog = skel->progs.deny_file_alloc;

	if (run(seconds))
		check_after();
	lsm_stress__destroy(skel);

	KRSI_CHECK_OBJECTS_FREED(&mark0);
	unlink(XATTR_FILE);
	return krsi_exit("lsm_stress");
}
