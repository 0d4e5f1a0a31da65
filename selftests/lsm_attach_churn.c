// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_attach_churn <cycles> [loop_iters]
 * lsm_attach_churn --ftrace <cycles>
 *
 * Text patching of a hot call site while another CPU runs through it.
 *
 * BPF mode: a deny program on file_mprotect (-EPERM for this process's
 * page) and an fentry program on bpf_lsm_file_mprotect() (an empty
 * bpf_loop() of loop_iters iterations, default 0) stay attached for the
 * whole run; a churn thread attaches and detaches an allow-all
 * lsm/file_mprotect program <cycles> times (bpf_program__attach() +
 * bpf_link__destroy(), no pause), while the main thread calls mprotect()
 * on its page in a loop, alternating PROT_READ and PROT_READ | PROT_WRITE.
 * Each attach and each detach updates the nop's trampoline: on stock 6.1
 * ftrace repoints the nop's fentry call (text_poke_bp() of the nop's
 * first instruction, through ftrace's tmp_ops), on the series the hook's
 * static call in security.c is repointed (text_poke_bp() too). Every call
 * is made while the deny program is attached, so every call must fail
 * with EPERM, and the deny program's count must equal the EPERMs seen.
 *
 * --ftrace mode, no BPF: the churn thread turns the function tracer on and
 * off <cycles> times on security_file_mprotect() alone (tracefs
 * set_ftrace_filter, current_tracer function / nop): ftrace's own
 * text_poke_bp() of the function's first instruction, a site that every
 * mprotect() call runs through. Every call must succeed.
 *
 * Both modes report the cycles done, the mprotect() calls and how many
 * were allowed, and fail on a call with the wrong outcome or fewer cycles
 * than asked (the run stops at TIME_CAP seconds). Works on stock 6.1 and
 * on the series: it reads nothing that only the series has.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_attach_churn.skel.h"

#define TIME_CAP	480	/* seconds; the guest script allows 600 */
#define NR_REPORT	5	/* bad calls reported one by one */
#define TRACEFS		"/sys/kernel/tracing"
#define FTRACE_FUNC	"security_file_mprotect"

static struct lsm_attach_churn *skel;
static void *page;
static long page_size;
static double start;
static atomic_bool stop;	/* the churn thread is done */
static atomic_bool timed_out;

static struct {
	unsigned long cycles;	/* attach + detach, or tracer on + off */
	int err;		/* errno of the step that stopped it */
	const char *what;	/* that step */
	bool left_on;		/* allow program or tracer left on */
} churn;

static struct {
	unsigned long calls;
	unsigned long allowed;	/* BPF mode: must stay 0 */
	unsigned long eperm;
	unsigned long other;	/* another errno (either mode) */
	unsigned long bad;	/* calls with the wrong outcome */
	unsigned long bad_call[NR_REPORT];
	double bad_time[NR_REPORT];
	int bad_errno[NR_REPORT];
} calls;

static unsigned long cycles_wanted;

static void churn_failed(const char *what, int err)
{
	churn.what = what;
	churn.err = err;
}

/* BPF mode: attach and detach the allow-all program, no pause. */
static void *bpf_churn(void *arg)
{
	struct bpf_link *link;
	int err;

	(void)arg;
	while (churn.cycles < cycles_wanted && !atomic_load(&timed_out)) {
		link = bpf_program__attach(skel->progs.allow_mprotect);
		if (!link) {
			churn_failed("attach allow_mprotect", errno);
			break;
		}
		err = bpf_link__destroy(link);
		if (err) {
			churn.left_on = true;
			churn_failed("detach allow_mprotect", -err);
			break;
		}
		churn.cycles++;
	}
	atomic_store(&stop, true);
	return NULL;
}

/* Write @val to tracefs file @name; 0 or an errno. */
static int tracefs_write(const char *name, const char *val)
{
	char path[128];
	ssize_t len = strlen(val), n;
	int fd, err = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, val, len);
	if (n != len)
		err = n < 0 ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* --ftrace mode: the function tracer on and off on FTRACE_FUNC. */
static void *ftrace_churn(void *arg)
{
	int err;

	(void)arg;
	while (churn.cycles < cycles_wanted && !atomic_load(&timed_out)) {
		err = tracefs_write("current_tracer", "function");
		if (err) {
			churn_failed("current_tracer function", err);
			break;
		}
		churn.left_on = true;
		err = tracefs_write("current_tracer", "nop");
		if (err) {
			churn_failed("current_tracer nop", err);
			break;
		}
		churn.left_on = false;
		churn.cycles++;
	}
	atomic_store(&stop, true);
	return NULL;
}

/* The main thread: mprotect() on the page until the churn thread is done.
 * @expect is the errno every call must give (0: success).
 */
static void call_loop(int expect)
{
	int prot, err;

	while (!atomic_load(&stop)) {
		if (krsi_now() - start > TIME_CAP)
			atomic_store(&timed_out, true);
		prot = calls.calls % 2 ? PROT_READ : PROT_READ | PROT_WRITE;
		err = mprotect(page, page_size, prot) ? errno : 0;
		calls.calls++;
		if (err == EPERM)
			calls.eperm++;
		else if (!err)
			calls.allowed++;
		else
			calls.other++;
		if (err == expect)
			continue;
		if (calls.bad < NR_REPORT) {
			calls.bad_call[calls.bad] = calls.calls - 1;
			calls.bad_time[calls.bad] = krsi_now() - start;
			calls.bad_errno[calls.bad] = err;
		}
		calls.bad++;
	}
}

static void report_calls(int expect)
{
	unsigned long i;

	for (i = 0; i < calls.bad && i < NR_REPORT; i++)
		krsi_note("call %lu, %.3f s into the run: %s", calls.bad_call[i],
			  calls.bad_time[i],
			  calls.bad_errno[i] ? strerror(calls.bad_errno[i]) : "allowed");
	krsi_note("cycles done: %lu of %lu", churn.cycles, cycles_wanted);
	krsi_note("mprotect calls: %lu", calls.calls);
	krsi_note("calls allowed: %lu", calls.allowed);
	krsi_note("calls failed with EPERM: %lu", calls.eperm);
	krsi_note("calls failed with another errno: %lu", calls.other);
	if (churn.what)
		KRSI_CHECK_ERRNO(churn.what, 0, churn.err);
	KRSI_CHECK_EQ("left attached or on", 0, churn.left_on);
	if (churn.cycles < cycles_wanted)
		krsi_fail(__FILE__, __LINE__, "%lu cycles of %lu in %d s",
			  churn.cycles, cycles_wanted, TIME_CAP);
	if (!calls.calls)
		krsi_fail(__FILE__, __LINE__, "no mprotect() call made");
	KRSI_CHECK_EQ("calls failed with another errno", 0, calls.other);
	if (expect)
		KRSI_CHECK_EQ("calls allowed", 0, calls.allowed);
	else
		KRSI_CHECK_EQ("calls failed with EPERM", 0, calls.eperm);
}

static bool start_churn(void *(*fn)(void *), pthread_t *thread)
{
	start = krsi_now();
	if (pthread_create(thread, NULL, fn, NULL)) {
		krsi_fail(__FILE__, __LINE__, "pthread_create failed");
		return false;
	}
	return true;
}

static void run_bpf(unsigned long loop_iters)
{
	struct bpf_link *deny = NULL, *trace = NULL;
	struct krsi_mark mark0;
	pthread_t thread;
	int err;

	mark0 = krsi_mark_objects();
	skel = lsm_attach_churn__open();
	if (!KRSI_CHECK_PTR("lsm_attach_churn__open", skel))
		return;
	skel->rodata->target_tgid = getpid();
	skel->rodata->page = (unsigned long)page;
	skel->rodata->loop_iters = loop_iters;
	err = lsm_attach_churn__load(skel);
	if (!KRSI_CHECK_OK("lsm_attach_churn__load", err))
		goto out;
	deny = bpf_program__attach(skel->progs.deny_mprotect);
	if (!KRSI_CHECK_PTR("attach deny_mprotect", deny))
		goto out;
	trace = bpf_program__attach(skel->progs.trace_mprotect);
	if (!KRSI_CHECK_PTR("attach trace_mprotect", trace))
		goto out;
	krsi_note("bpf: %lu attach/detach cycles of an allow-all program, fentry bpf_loop of %lu",
		  cycles_wanted, loop_iters);
	if (!start_churn(bpf_churn, &thread))
		goto out;
	call_loop(EPERM);
	pthread_join(thread, NULL);
	krsi_note("ran %.1f s", krsi_now() - start);
	report_calls(EPERM);
	krsi_note("program denials: %llu, allow-all runs: %llu, fentry runs: %llu",
		  (unsigned long long)skel->bss->denied,
		  (unsigned long long)skel->bss->allow_runs,
		  (unsigned long long)skel->bss->fentry_runs);
	KRSI_CHECK_EQ("EPERMs seen = denials by the program",
		      skel->bss->denied, calls.eperm);
out:
	if (trace)
		KRSI_CHECK_OK("detach trace_mprotect", bpf_link__destroy(trace));
	if (deny)
		KRSI_CHECK_OK("detach deny_mprotect", bpf_link__destroy(deny));
	lsm_attach_churn__destroy(skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
}

static void run_ftrace(void)
{
	pthread_t thread;
	int err;

	if (access(TRACEFS "/current_tracer", W_OK)) {
		krsi_fail(__FILE__, __LINE__,
			  "no " TRACEFS "/current_tracer (the guest's init mounts tracefs): %s",
			  strerror(errno));
		return;
	}
	err = tracefs_write("set_ftrace_filter", FTRACE_FUNC);
	if (!KRSI_CHECK_ERRNO("set_ftrace_filter " FTRACE_FUNC, 0, err))
		return;
	krsi_note("ftrace: %lu cycles of the function tracer on " FTRACE_FUNC,
		  cycles_wanted);
	if (start_churn(ftrace_churn, &thread)) {
		call_loop(0);
		pthread_join(thread, NULL);
		krsi_note("ran %.1f s", krsi_now() - start);
		report_calls(0);
	}
	KRSI_CHECK_ERRNO("current_tracer nop", 0,
			 tracefs_write("current_tracer", "nop"));
	KRSI_CHECK_ERRNO("empty set_ftrace_filter", 0,
			 tracefs_write("set_ftrace_filter", "\n"));
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
	unsigned long loop_iters = 0;
	bool ftrace = argc > 1 && !strcmp(argv[1], "--ftrace");
	char **arg = argv + 1 + ftrace;
	int nargs = argc - 1 - ftrace;

	krsi_init();
	if (nargs < 1 || nargs > (ftrace ? 1 : 2) ||
	    !parse_ulong(arg[0], &cycles_wanted) || !cycles_wanted ||
	    (nargs > 1 && !parse_ulong(arg[1], &loop_iters))) {
		fprintf(stderr, "usage: lsm_attach_churn <cycles> [loop_iters]\n"
				"       lsm_attach_churn --ftrace <cycles>\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	/* The page between two PROT_NONE pages: its mapping never merges
	 * with another, so its vm_start is the page, which the programs
	 * match.
	 */
	page = mmap(NULL, 3 * page_size, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_SYSCALL("mmap", page == MAP_FAILED ? -1 : 0))
		return krsi_exit("lsm_attach_churn");
	page = (char *)page + page_size;
	if (!KRSI_CHECK_SYSCALL("mprotect before the test",
				mprotect(page, page_size, PROT_READ | PROT_WRITE)))
		return krsi_exit("lsm_attach_churn");
	if (ftrace)
		run_ftrace();
	else
		run_bpf(loop_iters);
	return krsi_exit("lsm_attach_churn");
}
