// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_image_sleep: a retired trampoline image must outlive a call that
 * sleeps in one of its sleepable programs. Two lsm.s programs on the void
 * hook inode_post_setxattr (fentry programs of one image with the series),
 * then two on the int hook inode_setxattr (whose image returns the verdict
 * and calls the nop only because they may sleep), each sleep on a
 * userfaultfd page. A thread sets an xattr and sleeps in the first; a
 * fentry program attached to the nop retires the image; the thread is let
 * into the second, where it sleeps again. The retired image must stay (its
 * bpf_trampoline_<key> symbol in /proc/kallsyms) while the thread sleeps
 * there, for longer than it takes the image of a fentry program detached at
 * the same time, which no call is in, to be freed, and must be freed once
 * the thread left. An image freed under the thread is executed as freed
 * text when the thread wakes up: the guest then oopses after this test
 * reported its failure.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_image_sleep.skel.h"

#define WAIT_S		30
/* The BTF id in a trampoline's key (6.12 sets bit 31 besides it). */
#define KEY_BTF_ID	0x7fffffffULL
#define TARGET_TEMPLATE	"/tmp/lsm_image_sleep_XXXXXX"
/* Two pages per hook, each faulted on once. */
#define NR_PAGES	4

static long page_size;
static int uffd = -1;
static char *pages;

struct setter {
	struct lsm_image_sleep *skel;
	int fd;
	int ret, err;
};

static void *set_xattr(void *arg)
{
	struct setter *s = arg;

	s->skel->bss->target_tid = syscall(SYS_gettid);
	s->ret = fsetxattr(s->fd, "security.lsm_image_sleep", "x", 1, 0);
	s->err = s->ret ? errno : 0;
	s->skel->bss->target_tid = 0;
	return NULL;
}

/* Images are in /proc/kallsyms only with bpf_jit_kallsyms set. */
static bool show_images(void)
{
	int fd = open("/proc/sys/net/core/bpf_jit_kallsyms", O_WRONLY);
	bool ok;

	if (!KRSI_CHECK_SYSCALL("open bpf_jit_kallsyms", fd))
		return false;
	ok = KRSI_CHECK_EQ("write bpf_jit_kallsyms", 1, write(fd, "1", 1));
	close(fd);
	return ok;
}

/* The page of the next fault on the userfaultfd, or NULL after WAIT_S. */
static char *next_fault(void)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, WAIT_S * 1000) != 1)
		return NULL;
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	return (char *)(unsigned long)(msg.arg.pagefault.address & ~(page_size - 1));
}

/* Fill @page, waking the call that faulted on it. */
static bool resolve(char *page)
{
	static char src[1 << 16] = { 1 };
	struct uffdio_copy copy = {
		.dst = (unsigned long)page,
		.src = (unsigned long)src,
		.len = page_size,
	};

	return KRSI_CHECK_SYSCALL("UFFDIO_COPY", ioctl(uffd, UFFDIO_COPY, &copy));
}

static bool uffd_setup(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (!KRSI_CHECK_SYSCALL("userfaultfd", uffd) ||
	    !KRSI_CHECK_SYSCALL("UFFDIO_API", ioctl(uffd, UFFDIO_API, &api)))
		return false;
	pages = mmap(NULL, NR_PAGES * page_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_PTR("mmap", pages == MAP_FAILED ? NULL : pages))
		return false;
	reg.range.start = (unsigned long)pages;
	reg.range.len = NR_PAGES * page_size;
	return KRSI_CHECK_SYSCALL("UFFDIO_REGISTER", ioctl(uffd, UFFDIO_REGISTER, &reg));
}

/* How many trampoline images of BTF id @id are in /proc/kallsyms; the
 * address of one of them in *@addr, and whether one is at @want.
 */
static int images(__u32 id, unsigned long *addr, unsigned long want, bool *found)
{
	char line[512], name[256];
	unsigned long long key, a;
	int n = 0;
	FILE *f;
	char t;

	*found = false;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3 ||
		    sscanf(name, "bpf_trampoline_%llu", &key) != 1 ||
		    (key & KEY_BTF_ID) != id)
			continue;
		n++;
		*addr = a;
		*found |= a == want;
	}
	fclose(f);
	return n;
}

static bool image_listed(__u32 id, unsigned long want)
{
	unsigned long a;
	bool found;

	images(id, &a, want, &found);
	return found;
}

/* The one image of @id, or 0 after a failed check. The images that
 * attaching retired, no call in them, go within WAIT_S.
 */
static unsigned long the_image(__u32 id, const char *what)
{
	double start = krsi_now();
	unsigned long a = 0;
	bool found;
	int n;

	while ((n = images(id, &a, 0, &found)) > 1 && krsi_now() - start < WAIT_S)
		usleep(50000);
	if (n != 1) {
		krsi_fail(__FILE__, __LINE__, "%s: %d trampoline images in /proc/kallsyms, expected 1",
			  what, n);
		return 0;
	}
	return a;
}

/* Wait up to WAIT_S for @want to leave /proc/kallsyms: seconds, or -1. */
static double wait_freed(__u32 id, unsigned long want)
{
	double start = krsi_now();

	while (krsi_now() - start < WAIT_S) {
		if (!image_listed(id, want))
			return krsi_now() - start;
		usleep(50000);
	}
	return -1;
}

/* One hook: its two sleepable programs, the fentry program that retires
 * their image, and the hook's name.
 */
struct sleep_case {
	const char *hook;
	struct bpf_program *a, *b, *retire;
};

/* Case @n of @skel on pages 2n and 2n + 1. */
static void run_case(struct lsm_image_sleep *skel, const struct sleep_case *c, int n)
{
	struct bpf_link *la = NULL, *lb = NULL, *lr = NULL, *lw = NULL;
	char path[] = TARGET_TEMPLATE, nop[64], what[128];
	struct setter s = { .skel = skel, .fd = -1, .ret = -1 };
	char *first = NULL, *second = NULL, *pending = NULL;
	unsigned long old = 0, witness;
	__u32 hook_id, witness_id;
	bool started = false;
	pthread_t thread;
	double secs;

	krsi_note("%s: two sleepable programs", c->hook);
	snprintf(nop, sizeof(nop), "bpf_lsm_%s", c->hook);
	hook_id = krsi_vmlinux_btf_id(nop);
	witness_id = krsi_vmlinux_btf_id("bpf_lsm_sb_pivotroot");
	if (!hook_id || !witness_id)
		return;
	skel->bss->page_a = (unsigned long)pages + 2 * n * page_size;
	skel->bss->page_b = (unsigned long)pages + (2 * n + 1) * page_size;
	skel->bss->a_runs = skel->bss->b_runs = 0;
	s.fd = mkstemp(path);
	if (!KRSI_CHECK_SYSCALL("mkstemp", s.fd))
		return;

	la = bpf_program__attach(c->a);
	lb = bpf_program__attach(c->b);
	lw = bpf_program__attach(skel->progs.witness);
	if (!KRSI_CHECK_PTR("attach the first program", la) ||
	    !KRSI_CHECK_PTR("attach the second program", lb) ||
	    !KRSI_CHECK_PTR("attach witness", lw))
		goto out;
	snprintf(what, sizeof(what), "%s with both programs", c->hook);
	old = the_image(hook_id, what);
	witness = the_image(witness_id, "sb_pivotroot with witness");
	if (!old || !witness)
		goto out;

	started = KRSI_CHECK_EQ("pthread_create", 0,
				pthread_create(&thread, NULL, set_xattr, &s));
	if (!started)
		goto out;
	pending = first = next_fault();
	if (!KRSI_CHECK_PTR("the setxattr() sleeping in the first program", first))
		goto out;

	/* Retire the image the thread sleeps in, and an image no call is in:
	 * the grace periods that free the latter have passed for the former
	 * too. Their RCU tasks trace grace periods wait for the thread to
	 * leave the first program, once they saw it there. Then let it into
	 * the next program of its image, where it sleeps again.
	 */
	lr = bpf_program__attach(c->retire);
	if (!KRSI_CHECK_PTR("attach the fentry program that retires the image", lr))
		goto out;
	bpf_link__destroy(lw);
	lw = NULL;
	sleep(2);
	pending = NULL;
	if (!resolve(first))
		goto out;
	pending = second = next_fault();
	if (!KRSI_CHECK_PTR("the setxattr() sleeping in the second program", second))
		goto out;
	KRSI_CHECK_EQ("the second program sleeps on the other page", 1, second != first);

	secs = wait_freed(witness_id, witness);
	if (secs < 0) {
		krsi_fail(__FILE__, __LINE__,
			  "the image of a detached fentry program is still listed %d s after the thread left the first program",
			  WAIT_S);
		goto out;
	}
	krsi_note("an image no call is in freed %.2f s after the thread left the first program",
		  secs);
	sleep(1);
	if (!image_listed(hook_id, old)) {
		krsi_fail(__FILE__, __LINE__,
			  "%s: the retired image at %#lx was freed while a setxattr() sleeps in its second program; waking it up will run freed text",
			  c->hook, old);
		goto out;
	}
	krsi_note("the retired image stays while a call sleeps in it");

out:
	/* A thread left asleep on a page would never return. */
	if (pending && !resolve(pending))
		second = NULL;
	if (started) {
		pthread_join(thread, NULL);
		if (second) {
			KRSI_CHECK_ERRNO("setxattr() with both programs", 0, s.err);
			KRSI_CHECK_EQ("the first program ran", 1, skel->bss->a_runs);
			KRSI_CHECK_EQ("the second program ran", 1, skel->bss->b_runs);
			secs = wait_freed(hook_id, old);
			if (secs < 0)
				krsi_fail(__FILE__, __LINE__, "the retired image is still listed %d s after its last call left",
					  WAIT_S);
			else
				krsi_note("the retired image freed %.2f s after its last call left", secs);
		}
	}
	bpf_link__destroy(lr);
	bpf_link__destroy(lw);
	bpf_link__destroy(lb);
	bpf_link__destroy(la);
	close(s.fd);
	unlink(path);
}

int main(void)
{
	struct lsm_image_sleep *skel;
	struct krsi_mark mark0;
	int i;

	krsi_init();
	page_size = sysconf(_SC_PAGESIZE);
	mark0 = krsi_mark_objects();
	skel = lsm_image_sleep__open_and_load();
	if (!KRSI_CHECK_PTR("lsm_image_sleep__open_and_load", skel))
		return krsi_exit("lsm_image_sleep");
	if (show_images() && uffd_setup()) {
		/* A void hook, whose programs are fentry programs, and an int
		 * hook, whose LSM programs make the verdict.
		 */
		const struct sleep_case cases[] = {
			{ "inode_post_setxattr", skel->progs.sleep_a,
			  skel->progs.sleep_b, skel->progs.retire },
			{ "inode_setxattr", skel->progs.int_sleep_a,
			  skel->progs.int_sleep_b, skel->progs.int_retire },
		};

		for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++)
			run_case(skel, &cases[i], i);
	}
	if (pages)
		munmap(pages, NR_PAGES * page_size);
	if (uffd >= 0)
		close(uffd);
	lsm_image_sleep__destroy(skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_image_sleep");
}
