// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_tramp_race [calls [hold_ms]]: a deny program on file_mprotect stays
 * attached for the whole run, while churn threads attach and detach other
 * programs on the same nop, bpf_lsm_file_mprotect():
 *
 *   lsm      a second lsm/file_mprotect program that allows
 *   cgroup   an lsm_cgroup/file_mprotect program that allows, on the
 *            cgroup v2 root (through the shim it adds to the trampoline)
 *   fentry   an fentry program on the nop that does next to nothing
 *   hold     an fentry program on the nop that holds caller 0's calls
 *            (spinning in bpf_loop) until two more updates completed, at
 *            most hold_ms milliseconds (default HOLD_MS; 0: no such
 *            thread)
 *
 * Each attach and each detach is a trampoline update, which retires the
 * old image with bpf_tramp_image_put(): that patches the old image's
 * return from the nop into a jump to its epilogue. An LSM program that
 * runs after the nop, as fexit, is then skipped for a hook call still
 * inside the old image before its call of the nop (in an fentry program,
 * say), and the nop's default 0 lets the call through. The hold program
 * keeps calls exactly there while updates retire their image.
 *
 * Caller threads call mprotect() on their own page, alternating PROT_READ
 * and PROT_READ | PROT_WRITE. Every call starts after the deny program's
 * attach returned and ends before its detach, so every call must fail
 * with EPERM, and the deny program's count of denials must equal the
 * EPERMs seen. The run lasts until at least <calls> calls (default
 * DEFAULT_CALLS) were made and every churn thread did MIN_CYCLES cycles,
 * or TIME_CAP seconds; fewer calls or cycles than that fail the test. At
 * the end no churn link may be left, the hook must be dark and the program
 * and link counts back where they started.
 */

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_tramp_race.skel.h"

#define NR_CALLERS	2	/* the guest has 2 vCPUs */
#define MIN_CYCLES	3
#define TIME_CAP	120	/* seconds */
#define DEFAULT_CALLS	100000
#define HOLD_MS		1000
#define NR_REPORT	5	/* bad calls reported one by one, per caller */
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define HOOK		"file_mprotect"

enum { CHURN_LSM, CHURN_CGROUP, CHURN_FENTRY, CHURN_HOLD, NR_CHURN };

struct caller {
	void *page;
	unsigned long calls;
	unsigned long succeeded;	/* must stay 0 */
	unsigned long eperm;
	unsigned long other;		/* failed with another errno */
	/* the first NR_REPORT bad calls, printed after the run */
	unsigned long bad_call[NR_REPORT];
	double bad_time[NR_REPORT];
	int bad_errno[NR_REPORT];
	pthread_t thread;
};

struct churn {
	const char *name;
	struct bpf_program *prog;
	bool cgroup;			/* lsm_cgroup: attach to cgroup_fd */
	bool enabled;
	struct bpf_link *link;		/* while attached */
	unsigned long cycles;		/* attach+detach pairs */
	int attach_err;
	int detach_err;
	pthread_t thread;
};

static struct lsm_tramp_race *skel;
static struct caller callers[NR_CALLERS];
static struct churn churns[NR_CHURN];
static atomic_bool stop;
static atomic_ulong total_calls;
static long page_size;
static int cgroup_fd = -1;
static double start;

/* How long a program stays attached, and detached, in us: short, so that
 * the run makes many updates; the updates themselves take tens of
 * milliseconds under TCG, where every text poke waits for the other vCPU.
 */
static unsigned int dwell(unsigned int *r)
{
	return 1000 + rand_r(r) % 4000;
}

/* An attach or detach returned: its trampoline update, and the retirement
 * of the image it replaced, are complete. hold_mprotect counts on it.
 */
static void update_done(void)
{
	__atomic_fetch_add(&skel->bss->updates, 1, __ATOMIC_SEQ_CST);
}

static void *churn_thread(void *arg)
{
	struct churn *ch = arg;
	unsigned int r = (unsigned int)(ch - churns) + 1;
	struct bpf_link *link;
	int err;

	while (!atomic_load(&stop)) {
		if (ch->cgroup)
			link = bpf_program__attach_cgroup(ch->prog, cgroup_fd);
		else
			link = bpf_program__attach(ch->prog);
		if (!link) {
			ch->attach_err = errno;
			break;
		}
		ch->link = link;
		update_done();
		usleep(dwell(&r));
		err = bpf_link__destroy(link);
		ch->link = NULL;
		if (err) {
			ch->detach_err = -err;
			break;
		}
		update_done();
		ch->cycles++;
		usleep(dwell(&r));
	}
	return NULL;
}

static void *caller_thread(void *arg)
{
	struct caller *c = arg;
	unsigned long bad;
	int prot, err;

	while (!atomic_load(&stop)) {
		prot = c->calls % 2 ? PROT_READ : PROT_READ | PROT_WRITE;
		err = mprotect(c->page, page_size, prot) ? errno : 0;
		if (err == EPERM) {
			c->eperm++;
		} else {
			bad = c->succeeded + c->other;
			if (bad < NR_REPORT) {
				c->bad_call[bad] = c->calls;
				c->bad_time[bad] = krsi_now() - start;
				c->bad_errno[bad] = err;
			}
			if (err)
				c->other++;
			else
				c->succeeded++;
		}
		c->calls++;
		atomic_fetch_add_explicit(&total_calls, 1, memory_order_relaxed);
	}
	return NULL;
}

static bool cycles_done(void)
{
	int i;

	for (i = 0; i < NR_CHURN; i++)
		if (churns[i].enabled && churns[i].cycles < MIN_CYCLES &&
		    !churns[i].attach_err && !churns[i].detach_err)
			return false;
	return true;
}

/* Callers and churn threads until @calls calls and MIN_CYCLES cycles per
 * churn thread, or TIME_CAP. Called with the deny program attached.
 */
static void run(unsigned long calls)
{
	double end;
	int i;

	start = krsi_now();
	end = start + TIME_CAP;
	for (i = 0; i < NR_CALLERS; i++)
		if (pthread_create(&callers[i].thread, NULL, caller_thread,
				   &callers[i])) {
			krsi_fail(__FILE__, __LINE__, "pthread_create failed");
			exit(KSFT_FAIL);
		}
	for (i = 0; i < NR_CHURN; i++)
		if (churns[i].enabled &&
		    pthread_create(&churns[i].thread, NULL, churn_thread,
				   &churns[i])) {
			krsi_fail(__FILE__, __LINE__, "pthread_create failed");
			exit(KSFT_FAIL);
		}
	while (krsi_now() < end &&
	       (atomic_load(&total_calls) < calls || !cycles_done()))
		usleep(50000);
	atomic_store(&stop, true);
	for (i = 0; i < NR_CALLERS; i++)
		pthread_join(callers[i].thread, NULL);
	for (i = 0; i < NR_CHURN; i++)
		if (churns[i].enabled)
			pthread_join(churns[i].thread, NULL);
	krsi_note("ran %.1f s", krsi_now() - start);
}

static void report(unsigned long calls)
{
	unsigned long n = 0, succeeded = 0, eperm = 0, other = 0;
	int i;

	for (i = 0; i < NR_CALLERS; i++) {
		struct caller *c = &callers[i];
		unsigned long j;

		for (j = 0; j < c->succeeded + c->other && j < NR_REPORT; j++)
			krsi_note("caller %d: call %lu, %.3f s into the run: %s",
				  i, c->bad_call[j], c->bad_time[j],
				  c->bad_errno[j] ? strerror(c->bad_errno[j]) :
						    "allowed");
		krsi_note("caller %d: %lu calls, %lu succeeded, %lu EPERM, %lu other errno",
			  i, c->calls, c->succeeded, c->eperm, c->other);
		n += c->calls;
		succeeded += c->succeeded;
		eperm += c->eperm;
		other += c->other;
	}
	krsi_note("calls: %lu", n);
	krsi_note("succeeded: %lu", succeeded);
	krsi_note("errno other than EPERM: %lu", other);
	krsi_note("program denials: %llu",
		  (unsigned long long)skel->bss->denied);
	krsi_note("runs while attached: lsm %llu, cgroup %llu, fentry %llu, hold %llu (%llu cut short); %llu updates",
		  (unsigned long long)skel->bss->lsm_runs,
		  (unsigned long long)skel->bss->cgroup_runs,
		  (unsigned long long)skel->bss->fentry_runs,
		  (unsigned long long)skel->bss->holds,
		  (unsigned long long)skel->bss->holds_cut,
		  (unsigned long long)skel->bss->updates);
	for (i = 0; i < NR_CHURN; i++) {
		struct churn *ch = &churns[i];

		if (!ch->enabled) {
			krsi_note("churn %s: off", ch->name);
			continue;
		}
		krsi_note("churn %s: %lu cycles", ch->name, ch->cycles);
		KRSI_CHECK_ERRNO(ch->name, 0, ch->attach_err);
		KRSI_CHECK_ERRNO(ch->name, 0, ch->detach_err);
		KRSI_CHECK_EQ("churn link left attached", 0, ch->link != NULL);
		if (ch->cycles < MIN_CYCLES)
			krsi_fail(__FILE__, __LINE__,
				  "churn %s: %lu cycles, fewer than %d",
				  ch->name, ch->cycles, MIN_CYCLES);
	}
	if (n < calls)
		krsi_fail(__FILE__, __LINE__,
			  "%lu calls in %d s, fewer than the %lu asked for",
			  n, TIME_CAP, calls);
	/* A run in which no call was held never opened the window. */
	if (churns[CHURN_HOLD].enabled && !skel->bss->holds && !skel->bss->holds_cut)
		krsi_fail(__FILE__, __LINE__, "hold_mprotect held no call");
	KRSI_CHECK_EQ("calls that succeeded", 0, succeeded);
	KRSI_CHECK_EQ("calls failed with an errno other than EPERM", 0, other);
	/* A denial the callers did not see would be a verdict lost after
	 * the program ran; a call let through by a skipped program is not
	 * counted by it.
	 */
	KRSI_CHECK_EQ("EPERMs seen = denials by the program",
		      skel->bss->denied, eperm);
}

/* The callers' pages, each between two PROT_NONE pages: a caller's
 * mapping never merges with another, so its vm_start is its page, which
 * the programs match against the range of the whole block.
 */
static bool map_pages(void)
{
	size_t size = (2 * NR_CALLERS + 1) * page_size;
	char *block;
	int i;

	block = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_SYSCALL("mmap", block == MAP_FAILED ? -1 : 0))
		return false;
	for (i = 0; i < NR_CALLERS; i++) {
		callers[i].page = block + (2 * i + 1) * page_size;
		if (!KRSI_CHECK_SYSCALL("mprotect before the deny program",
					mprotect(callers[i].page, page_size,
						 PROT_READ | PROT_WRITE)))
			return false;
	}
	skel->rodata->page_lo = (unsigned long)block;
	skel->rodata->page_hi = (unsigned long)block + size;
	skel->rodata->hold_page = (unsigned long)callers[0].page;
	return true;
}

static bool open_cgroup_root(void)
{
	struct statfs sfs;

	if (statfs(CGROUP_ROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		krsi_fail(__FILE__, __LINE__,
			  "no cgroup v2 mounted on " CGROUP_ROOT " (the guest's init mounts it)");
		return false;
	}
	cgroup_fd = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return KRSI_CHECK_SYSCALL("open " CGROUP_ROOT, cgroup_fd);
}

/* A whole decimal argument. */
static bool parse_ulong(const char *s, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(s, &end, 10);
	return !errno && end != s && !*end;
}

int main(int argc, char **argv)
{
	unsigned long calls = DEFAULT_CALLS, hold_ms = HOLD_MS;
	struct bpf_link *deny;
	struct krsi_mark mark0;
	int err;

	krsi_init();
	if (argc > 3 || (argc > 1 && !parse_ulong(argv[1], &calls)) ||
	    (argc > 2 && !parse_ulong(argv[2], &hold_ms)) || !calls) {
		fprintf(stderr, "usage: lsm_tramp_race [calls > 0 [hold_ms]]\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	if (!open_cgroup_root())
		return krsi_exit("lsm_tramp_race");

	mark0 = krsi_mark_objects();
	skel = lsm_tramp_race__open();
	if (!KRSI_CHECK_PTR("lsm_tramp_race__open", skel))
		return krsi_exit("lsm_tramp_race");
	skel->rodata->target_tgid = getpid();
	skel->rodata->hold_ns = hold_ms * 1000000;
	if (!map_pages())
		goto out;
	err = lsm_tramp_race__load(skel);
	if (!KRSI_CHECK_OK("lsm_tramp_race__load", err))
		goto out;

	churns[CHURN_LSM] = (struct churn){
		.name = "lsm", .enabled = true,
		.prog = skel->progs.allow_mprotect };
	churns[CHURN_CGROUP] = (struct churn){
		.name = "cgroup", .enabled = true, .cgroup = true,
		.prog = skel->progs.allow_cgroup };
	churns[CHURN_FENTRY] = (struct churn){
		.name = "fentry", .enabled = true,
		.prog = skel->progs.trace_mprotect };
	churns[CHURN_HOLD] = (struct churn){
		.name = "hold", .enabled = hold_ms > 0,
		.prog = skel->progs.hold_mprotect };
	krsi_note("%lu calls at least, %d callers, holds of caller 0 up to %lu ms",
		  calls, NR_CALLERS, hold_ms);

	deny = bpf_program__attach(skel->progs.deny_mprotect);
	if (!KRSI_CHECK_PTR("attach deny_mprotect", deny))
		goto out;
	run(calls);
	err = bpf_link__destroy(deny);
	KRSI_CHECK_OK("detach deny_mprotect", err);
	report(calls);
	KRSI_CHECK_EQ("live_hooks " HOOK " after the run", 0,
		      krsi_live_count(HOOK));
out:
	lsm_tramp_race__destroy(skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	close(cgroup_fd);
	return krsi_exit("lsm_tramp_race");
}
