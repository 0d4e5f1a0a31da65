// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_hostile [cycles]: inputs the kernel must refuse with a specific errno
 * and verifier-log line, or survive with its state intact.
 *
 *   sleepable_hook     lsm.s/ on a hook outside the sleepable set
 *   freplace           an extension replacing a function of an LSM program
 *   tail_call          tail calls into programs of other hooks
 *   attached_twice     one program linked twice to file_alloc_security
 *   detach_sleeping    detaching while a sleepable program sleeps inside
 *                      the hook (userfaultfd holds it there)
 *   free_behind_sleeper  freeing the program that runs after a sleeping
 *                      one: the retired image the call sleeps in must not
 *                      run it from freed memory when the call wakes up
 *   cycles             attach+detach <cycles> times (default 10000) on
 *                      inode_removexattr: no growth of slab, vmalloc,
 *                      percpu memory or live programs and links
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/membarrier.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_hostile.skel.h"
#include "lsm_hostile_ext.skel.h"

#define LOG_SIZE	(1 << 20)
/* Memory that may come and go during the cycles without being a leak. */
#define GROWTH_SLACK_KB	256

static char log_buf[LOG_SIZE];
static long page_size;
/* Programs and links alive before the first subtest. */
static struct krsi_mark mark0;

/* lsm_hostile opened, not loaded, with @prog (and @prog2, may be NULL) to
 * load: every program is "?", out of the load unless asked for.
 */
static struct lsm_hostile *open_only(const char *prog, const char *prog2)
{
	struct lsm_hostile *skel = lsm_hostile__open();

	if (!KRSI_CHECK_PTR("lsm_hostile__open", skel))
		return NULL;
	bpf_program__set_autoload(bpf_object__find_program_by_name(skel->obj, prog), true);
	if (prog2)
		bpf_program__set_autoload(bpf_object__find_program_by_name(skel->obj, prog2),
					  true);
	return skel;
}

/* lsm_hostile loaded with only @prog (and @prog2, may be NULL). */
static struct lsm_hostile *open_with(const char *prog, const char *prog2)
{
	struct lsm_hostile *skel = open_only(prog, prog2);
	int err;

	if (!skel)
		return NULL;
	err = lsm_hostile__load(skel);
	if (!KRSI_CHECK_OK("lsm_hostile__load", err)) {
		lsm_hostile__destroy(skel);
		return NULL;
	}
	skel->bss->target_tgid = getpid();
	return skel;
}

static bool log_has(const char *what)
{
	if (strstr(log_buf, what))
		return true;
	krsi_fail(__FILE__, __LINE__, "verifier log lacks \"%s\"; log:\n%s",
		  what, log_buf);
	return false;
}

static int mprotect_errno(void *page)
{
	int ret = mprotect(page, page_size, PROT_READ);

	if (ret > 0)	/* a positive verdict leaking out of the hook */
		return -ret;
	return ret ? errno : 0;
}

static void sleepable_hook(void)
{
	struct lsm_hostile *skel = open_only("sleepable_on_atomic_hook", NULL);
	int err;

	if (!skel)
		return;
	log_buf[0] = 0;
	bpf_program__set_log_buf(skel->progs.sleepable_on_atomic_hook, log_buf,
				 sizeof(log_buf));
	err = lsm_hostile__load(skel);
	if (KRSI_CHECK_EQ("load of lsm.s/file_permission", -EINVAL, err))
		log_has("bpf_lsm_file_permission is not sleepable");
	lsm_hostile__destroy(skel);
}

static void freplace(void *page)
{
	struct lsm_hostile_ext *ext = NULL;
	struct lsm_hostile *skel;
	struct bpf_link *link = NULL, *ext_link = NULL;
	int err;

	skel = open_with("extendable", NULL);
	if (!skel)
		return;
	link = bpf_program__attach_lsm(skel->progs.extendable);
	if (!KRSI_CHECK_PTR("attach extendable", link) ||
	    !KRSI_CHECK_ERRNO("mprotect under extendable", EPERM,
			      mprotect_errno(page)))
		goto out;

	ext = lsm_hostile_ext__open();
	if (!KRSI_CHECK_PTR("lsm_hostile_ext__open", ext))
		goto out;
	err = bpf_program__set_attach_target(ext->progs.hostile_decide_ext,
					     bpf_program__fd(skel->progs.extendable),
					     "hostile_decide");
	if (!KRSI_CHECK_OK("bpf_program__set_attach_target", err))
		goto out;
	log_buf[0] = 0;
	bpf_program__set_log_buf(ext->progs.hostile_decide_ext, log_buf,
				 sizeof(log_buf));
	err = lsm_hostile_ext__load(ext);
	if (KRSI_CHECK_EQ("load of freplace/hostile_decide", -EINVAL, err)) {
		log_has("Cannot replace LSM programs");
		goto out;
	}
	/* Loaded: show what it would do to the policy. */
	ext_link = bpf_program__attach_freplace(ext->progs.hostile_decide_ext,
						bpf_program__fd(skel->progs.extendable),
						"hostile_decide");
	if (ext_link)
		krsi_note("freplace attached; mprotect now: %s",
			  strerror(mprotect_errno(page)));
out:
	bpf_link__destroy(ext_link);
	lsm_hostile_ext__destroy(ext);
	bpf_link__destroy(link);
	lsm_hostile__destroy(skel);
}

static void tail_call(void *page)
{
	struct { const char *prog; int err; } cases[] = {
		{ "void_hook_callee", EINVAL },
		{ "other_hook_callee", EINVAL },
		{ "same_hook_callee", 0 },
	};
	struct bpf_link *link = NULL;
	struct lsm_hostile *skel;
	struct bpf_program *p;
	unsigned int i;
	__u32 key = 0;
	int fd, err;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		skel = open_with("tail_caller", cases[i].prog);
		if (!skel)
			return;
		p = bpf_object__find_program_by_name(skel->obj, cases[i].prog);
		fd = bpf_program__fd(p);
		err = bpf_map__update_elem(skel->maps.jump, &key, sizeof(key),
					   &fd, sizeof(fd), BPF_ANY);
		if (!KRSI_CHECK_ERRNO(cases[i].prog, cases[i].err, -err)) {
			link = bpf_program__attach_lsm(skel->progs.tail_caller);
			if (link)
				krsi_note("%s in the tail call map: mprotect returns %d",
					  cases[i].prog, -mprotect_errno(page));
		} else if (!cases[i].err) {
			link = bpf_program__attach_lsm(skel->progs.tail_caller);
			if (KRSI_CHECK_PTR("attach tail_caller", link))
				KRSI_CHECK_ERRNO("mprotect through the tail call",
						 EPERM, mprotect_errno(page));
		}
		bpf_link__destroy(link);
		link = NULL;
		lsm_hostile__destroy(skel);
	}
}

static void attached_twice(void)
{
	struct bpf_link *first, *second;
	struct lsm_hostile *skel;

	skel = open_with("attached_twice", NULL);
	if (!skel)
		return;
	first = bpf_program__attach_lsm(skel->progs.attached_twice);
	if (!KRSI_CHECK_PTR("first attach", first))
		goto out;
	second = bpf_program__attach_lsm(skel->progs.attached_twice);
	KRSI_CHECK_ERRNO("second attach", EBUSY, second ? 0 : errno);
	bpf_link__destroy(second);
	KRSI_CHECK_EQ("file_alloc_security programs after the second attach", 1,
		      krsi_live_count("file_alloc_security"));
	bpf_link__destroy(first);
	KRSI_CHECK_EQ("file_alloc_security programs after detach", 0,
		      krsi_live_count("file_alloc_security"));
out:
	lsm_hostile__destroy(skel);
}

struct sleeper_arg {
	struct lsm_hostile *skel;
	int err;
};

static void *sleeper_thread(void *p)
{
	struct sleeper_arg *arg = p;
	int fd;

	arg->skel->bss->target_tid = syscall(SYS_gettid);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	arg->err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* A userfaultfd with one page registered in *@area, which nobody filled:
 * a read of it sleeps until fill_page(). Returns the fd, or -1.
 */
static int unfilled_page(void **area)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {};
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (!KRSI_CHECK_SYSCALL("userfaultfd", uffd))
		return -1;
	*area = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)*area;
	reg.range.len = page_size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (!KRSI_CHECK_SYSCALL("UFFDIO_API", ioctl(uffd, UFFDIO_API, &api)) ||
	    !KRSI_CHECK_SYSCALL("UFFDIO_REGISTER", ioctl(uffd, UFFDIO_REGISTER, &reg))) {
		munmap(*area, page_size);
		close(uffd);
		return -1;
	}
	return uffd;
}

/* Start a thread whose open() runs sleeper, which sleeps on @area; return
 * once it sleeps. Exits the test if it does not: the thread would never
 * return.
 */
static void start_sleeper(pthread_t *thread, struct sleeper_arg *arg,
			  int uffd, void *area)
{
	struct uffd_msg msg;

	arg->skel->bss->user_addr = (unsigned long)area;
	if (pthread_create(thread, NULL, sleeper_thread, arg)) {
		krsi_fail(__FILE__, __LINE__, "pthread_create failed");
		exit(KSFT_FAIL);
	}
	/* The fault arrives once the program sleeps inside the hook. */
	if (!KRSI_CHECK_SYSCALL("read uffd", read(uffd, &msg, sizeof(msg))) ||
	    !KRSI_CHECK_EQ("uffd event", UFFD_EVENT_PAGEFAULT, msg.event))
		exit(KSFT_FAIL);
	KRSI_CHECK_EQ("programs inside the hook", 1,
		      arg->skel->bss->entered - arg->skel->bss->left);
}

/* Wait until the programs and links created since the first subtest are
 * gone: a retired trampoline image holds its programs until the last call
 * left it and RCU tasks grace periods passed.
 */
static void expect_no_objects_left(void)
{
	KRSI_CHECK_OBJECTS_FREED(&mark0);
}

/* Fill @area: the sleeping program wakes up; wait for its thread. */
static void wake_sleeper(pthread_t thread, int uffd, void *area)
{
	struct uffdio_zeropage zero = {};

	zero.range.start = (unsigned long)area;
	zero.range.len = page_size;
	KRSI_CHECK_SYSCALL("UFFDIO_ZEROPAGE", ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
	pthread_join(thread, NULL);
}

static void detach_sleeping(void)
{
	struct sleeper_arg arg = {};
	struct bpf_link *link;
	pthread_t thread;
	int uffd, fd;
	void *area;

	uffd = unfilled_page(&area);
	if (uffd < 0)
		return;
	arg.skel = open_with("sleeper", NULL);
	if (!arg.skel)
		goto out_uffd;
	link = bpf_program__attach_lsm(arg.skel->progs.sleeper);
	if (!KRSI_CHECK_PTR("attach lsm.s/file_open", link))
		goto out_skel;
	start_sleeper(&thread, &arg, uffd, area);

	bpf_link__destroy(link);
	KRSI_CHECK_EQ("file_open programs after detach", 0,
		      krsi_live_count("file_open"));

	wake_sleeper(thread, uffd, area);
	/* It was attached when the open entered the hook: its verdict counts. */
	KRSI_CHECK_ERRNO("open that slept in the program", EPERM, arg.err);
	KRSI_CHECK_EQ("program runs that finished", 1, arg.skel->bss->left);

	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	KRSI_CHECK_SYSCALL("open after detach", fd);
	if (fd >= 0)
		close(fd);
out_skel:
	lsm_hostile__destroy(arg.skel);
out_uffd:
	munmap(area, page_size);
	close(uffd);
	expect_no_objects_left();
}

/* Wait until the programs put so far are freed: they go after an RCU grace
 * period (sleepable ones after an RCU tasks trace one), then in a work item.
 */
static void wait_for_freed_progs(void)
{
	int i;

	for (i = 0; i < 2; i++)
		KRSI_CHECK_SYSCALL("membarrier(MEMBARRIER_CMD_GLOBAL)",
				   syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0));
	usleep(200 * 1000);
}

static void free_behind_sleeper(void)
{
	struct bpf_link *link, *behind_link;
	struct sleeper_arg arg = {};
	struct lsm_hostile *behind;
	pthread_t thread;
	void *area;
	int uffd;

	uffd = unfilled_page(&area);
	if (uffd < 0)
		return;
	/* Programs run newest first: behind runs after sleeper. */
	behind = open_with("behind", NULL);
	if (!behind)
		goto out_uffd;
	behind_link = bpf_program__attach_lsm(behind->progs.behind);
	if (!KRSI_CHECK_PTR("attach behind", behind_link)) {
		lsm_hostile__destroy(behind);
		goto out_uffd;
	}
	arg.skel = open_with("sleeper", NULL);
	if (!arg.skel) {
		bpf_link__destroy(behind_link);
		lsm_hostile__destroy(behind);
		goto out_uffd;
	}
	link = bpf_program__attach_lsm(arg.skel->progs.sleeper);
	if (!KRSI_CHECK_PTR("attach lsm.s/file_open", link)) {
		bpf_link__destroy(behind_link);
		lsm_hostile__destroy(behind);
		goto out_skel;
	}
	start_sleeper(&thread, &arg, uffd, area);

	/* The last references to behind: its link and its program fd. */
	bpf_link__destroy(behind_link);
	lsm_hostile__destroy(behind);
	KRSI_CHECK_EQ("file_open programs after freeing behind", 1,
		      krsi_live_count("file_open"));
	wait_for_freed_progs();

	wake_sleeper(thread, uffd, area);
	KRSI_CHECK_ERRNO("open that slept before a freed program", EPERM,
			 arg.err);
	KRSI_CHECK_EQ("program runs that finished", 1, arg.skel->bss->left);
	bpf_link__destroy(link);
out_skel:
	lsm_hostile__destroy(arg.skel);
out_uffd:
	munmap(area, page_size);
	close(uffd);
	expect_no_objects_left();
}

/* Slab + VmallocUsed + Percpu from /proc/meminfo, in kB. */
/* Shrink every slab cache: frees its empty slabs and, under KASAN, the
 * objects its quarantine still holds, which /proc/meminfo counts as Slab
 * (up to 1/32 of RAM): without this a debug kernel's Slab moves by a MB or
 * more between two readings.
 */
static void shrink_slab_caches(void)
{
	char path[300];
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/slab");
	int fd;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		/* Merged caches appear again as alias symlinks. */
		if (d->d_name[0] == '.' || d->d_type == DT_LNK)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", d->d_name);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, "1", 1) != 1)
			krsi_note("cannot shrink %s: %m", d->d_name);
		close(fd);
	}
	closedir(dir);
}

static long kernel_memory_kb(void)
{
	char line[256];
	long total = 0, v;
	FILE *f;

	shrink_slab_caches();
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld", &v) == 1 ||
		    sscanf(line, "VmallocUsed: %ld", &v) == 1 ||
		    sscanf(line, "Percpu: %ld", &v) == 1)
			total += v;
	fclose(f);
	return total;
}

static bool cycle(struct lsm_hostile *skel, int n)
{
	struct bpf_link *link;
	int i;

	for (i = 0; i < n; i++) {
		link = bpf_program__attach_lsm(skel->progs.cycled);
		if (!KRSI_CHECK_PTR("attach inode_removexattr", link))
			return false;
		bpf_link__destroy(link);
	}
	return true;
}

/* @n attach+detach cycles, then the kernel's memory once their objects
 * are gone: false on failure.
 */
static bool cycles_then_memory(struct lsm_hostile *skel, int n, int progs,
			       int links, long *kb)
{
	double start = krsi_now();

	if (!cycle(skel, n))
		return false;
	krsi_note("cycles: %d attach+detach in %.1f s", n, krsi_now() - start);
	if (!krsi_wait_objects(&mark0, progs, links, 10)) {
		krsi_fail(__FILE__, __LINE__, "programs/links: %d/%d, expected %d/%d",
			  krsi_new_progs(&mark0), krsi_new_links(&mark0), progs, links);
		return false;
	}
	sleep(2);
	*kb = kernel_memory_kb();
	return true;
}

/* A leak grows with every cycle; slab and lazily freed vmalloc space move
 * by a few hundred kB now and then. Two rounds of @n / 2 cycles: the test
 * fails if both grew the kernel's memory by more than GROWTH_SLACK_KB.
 */
static void cycles(int n)
{
	int progs, links, warm = n / 10 + 1, half = (n + 1) / 2;
	struct lsm_hostile *skel;
	long kb[3];

	expect_no_objects_left();
	skel = open_with("cycled", NULL);
	if (!skel)
		return;
	progs = krsi_new_progs(&mark0);
	links = krsi_new_links(&mark0);
	if (!cycles_then_memory(skel, warm, progs, links, &kb[0]) ||
	    !cycles_then_memory(skel, half, progs, links, &kb[1]) ||
	    !cycles_then_memory(skel, half, progs, links, &kb[2]))
		goto out;
	krsi_note("cycles: slab+vmalloc+percpu %ld kB before, %ld and %ld kB after each round",
		  kb[0], kb[1], kb[2]);
	if (kb[1] - kb[0] > GROWTH_SLACK_KB && kb[2] - kb[1] > GROWTH_SLACK_KB)
		krsi_fail(__FILE__, __LINE__,
			  "kernel memory grew by %ld and %ld kB over two rounds of %d cycles",
			  kb[1] - kb[0], kb[2] - kb[1], half);
	KRSI_CHECK_EQ("inode_removexattr programs", 0,
		      krsi_live_count("inode_removexattr"));
out:
	lsm_hostile__destroy(skel);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	int failed = 0;
	void *page;

	krsi_init();
	if (n <= 0) {
		fprintf(stderr, "usage: lsm_hostile [cycles > 0]\n");
		return 2;
	}
	/* A hang is a failure, not a stuck CI. A cycle takes 0.25 s on the
	 * normal kernel under TCG, 0.5 s on the debug kernel: allow 1 s.
	 */
	alarm(900 + n + n / 10);
	page_size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mark0 = krsi_mark_objects();

	/* krsi_failed is a flag, not a count: clear it around each subtest
	 * so that its line tells its own result, and keep the verdict.
	 */
#define SUBTEST(call, name) do {					\
		failed |= krsi_failed;					\
		krsi_failed = 0;					\
		call;							\
		krsi_note("%s: %s", name, krsi_failed ? "FAIL" : "ok");	\
		failed |= krsi_failed;					\
	} while (0)
	SUBTEST(sleepable_hook(), "sleepable_hook");
	SUBTEST(freplace(page), "freplace");
	SUBTEST(tail_call(page), "tail_call");
	SUBTEST(attached_twice(), "attached_twice");
	SUBTEST(detach_sleeping(), "detach_sleeping");
	SUBTEST(free_behind_sleeper(), "free_behind_sleeper");
	SUBTEST(cycles(n), "cycles");
	krsi_failed |= failed;

	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_hostile");
}
