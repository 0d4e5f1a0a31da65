// SPDX-License-Identifier: GPL-2.0
/*
 * bench_attach: put an allow-all BPF LSM program on one hook for the
 * duration of a command, or time attach+detach cycles.
 *
 *   bench_attach [--progs <n>] <hook> -- <command> [args...]
 *	Load and attach the program for <hook> (only that one: the other
 *	program is not even loaded), fork+exec the command, wait for it,
 *	detach.  Exits with the command's status (128+signal if killed).
 *	--progs loads and attaches <n> (1 to 16) copies of the program, n
 *	programs on the same hook.
 *
 *   bench_attach --attach-cycles <n> [--rounds <r>] <hook>
 *	Load the program once, run a warm-up cycle, then <r> rounds (default
 *	5) of <n> bpf_program__attach() + bpf_link__destroy() cycles, each
 *	timed with CLOCK_MONOTONIC (guest ns = instructions under icount,
 *	including whatever the kernel does meanwhile, e.g. RCU callbacks
 *	freeing old trampolines) and CLOCK_PROCESS_CPUTIME_ID (this process
 *	only).  Prints, like lsm_bench:
 *	bench op=attach_detach_<hook> iters=<n> rounds=<r> ns_per_op=<min>
 *	      median=<m> max=<x> spread_pct=<p> cpu_ns_per_op=<min>
 *
 * <hook> is file_mprotect or file_open.  Diagnostics are "# " lines.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bench_attach.skel.h"

#define MAX_ROUNDS	64
#define MAX_PROGS	16

static const char usage_line[] =
	"usage: bench_attach [--progs <n>] <file_mprotect|file_open> -- <command> [args...] | bench_attach --attach-cycles <n> [--rounds <r>] <file_mprotect|file_open>";

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	fputs("# ", stdout);
	return vprintf(fmt, ap);
}

static long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One attach + detach of @prog; 0 or -1. */
static int cycle(struct bpf_program *prog)
{
	struct bpf_link *link;
	int err;

	link = bpf_program__attach(prog);
	if (!link) {
		printf("# bench_attach: attach %s: %s\n",
		       bpf_program__name(prog), strerror(errno));
		return -1;
	}
	err = bpf_link__destroy(link);
	if (err) {
		printf("# bench_attach: detach %s: %s\n",
		       bpf_program__name(prog), strerror(-err));
		return -1;
	}
	return 0;
}

static int attach_cycles(struct bpf_program *prog, const char *hook,
			 long n, int rounds)
{
	double wall[MAX_ROUNDS], cpu_min = 0, median;
	long long t0, t1, c0, c1;
	long i;
	int r;

	if (cycle(prog))
		return 1;
	for (r = 0; r < rounds; r++) {
		c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		t0 = clock_ns(CLOCK_MONOTONIC);
		for (i = 0; i < n; i++)
			if (cycle(prog))
				return 1;
		t1 = clock_ns(CLOCK_MONOTONIC);
		c1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		wall[r] = (double)(t1 - t0) / n;
		if (!r || (double)(c1 - c0) / n < cpu_min)
			cpu_min = (double)(c1 - c0) / n;
	}
	qsort(wall, rounds, sizeof(wall[0]), cmp_double);
	median = rounds & 1 ? wall[rounds / 2] :
		 (wall[rounds / 2 - 1] + wall[rounds / 2]) / 2;
	printf("bench op=attach_detach_%s iters=%ld rounds=%d ns_per_op=%.2f median=%.2f max=%.2f spread_pct=%.3f cpu_ns_per_op=%.2f\n",
	       hook, n, rounds, wall[0], median, wall[rounds - 1],
	       (wall[rounds - 1] - wall[0]) / wall[0] * 100, cpu_min);
	return 0;
}

/* Destroy links[0..n); 0, or -1 if a detach failed. */
static int detach_all(struct bpf_link **links, int n)
{
	int err, ret = 0;

	while (n--) {
		err = bpf_link__destroy(links[n]);
		if (err) {
			printf("# bench_attach: detach: %s\n", strerror(-err));
			ret = -1;
		}
	}
	return ret;
}

static int run_command(struct bpf_program **progs, int nprogs,
		       const char *hook, char **argv)
{
	struct bpf_link *links[MAX_PROGS];
	int status, i;
	pid_t pid;

	for (i = 0; i < nprogs; i++) {
		links[i] = bpf_program__attach(progs[i]);
		if (!links[i]) {
			printf("# bench_attach: attach %s: %s\n",
			       bpf_program__name(progs[i]), strerror(errno));
			detach_all(links, i);
			return 1;
		}
	}
	printf("# bench_attach: %d x %s attached to lsm/%s\n", nprogs,
	       bpf_program__name(progs[0]), hook);
	fflush(stdout);

	pid = fork();
	if (pid < 0) {
		printf("# bench_attach: fork: %s\n", strerror(errno));
		detach_all(links, nprogs);
		return 1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		printf("# bench_attach: exec %s: %s\n", argv[0],
		       strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			printf("# bench_attach: waitpid: %s\n",
			       strerror(errno));
			status = 1 << 8;
			break;
		}
	}

	if (detach_all(links, nprogs))
		return 1;
	printf("# bench_attach: %s detached\n", bpf_program__name(progs[0]));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int bad_usage(const char *what)
{
	fprintf(stderr, "bench_attach: %s; %s\n", what, usage_line);
	return 2;
}

/* Open and load the allow-all program for @hook in @skel; NULL on failure. */
static struct bpf_program *load_prog(struct bench_attach **skel, const char *hook)
{
	struct bpf_program *prog, *other;
	int ret;

	*skel = bench_attach__open();
	if (!*skel) {
		printf("# bench_attach: open skeleton: %s\n", strerror(errno));
		return NULL;
	}
	if (!strcmp(hook, "file_mprotect")) {
		prog = (*skel)->progs.allow_mprotect;
		other = (*skel)->progs.allow_open;
	} else {
		prog = (*skel)->progs.allow_open;
		other = (*skel)->progs.allow_mprotect;
	}
	bpf_program__set_autoload(other, false);
	ret = bench_attach__load(*skel);
	if (ret) {
		printf("# bench_attach: load: %s\n", strerror(-ret));
		return NULL;
	}
	return prog;
}

int main(int argc, char **argv)
{
	struct bench_attach *skels[MAX_PROGS] = {};
	struct bpf_program *progs[MAX_PROGS];
	int rounds = 5, nprogs = 1, ret = 1;
	long cycles = 0;
	const char *hook;
	char *end;
	int i = 1, p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(print_libbpf);

	while (i < argc && !strncmp(argv[i], "--", 2) && argv[i][2]) {
		if (i + 1 >= argc)
			return bad_usage("missing value after an option");
		if (!strcmp(argv[i], "--attach-cycles")) {
			cycles = strtol(argv[i + 1], &end, 10);
			if (*end || cycles < 1)
				return bad_usage("--attach-cycles wants a positive count");
		} else if (!strcmp(argv[i], "--rounds")) {
			rounds = strtol(argv[i + 1], &end, 10);
			if (*end || rounds < 1 || rounds > MAX_ROUNDS)
				return bad_usage("--rounds wants 1 to 64");
		} else if (!strcmp(argv[i], "--progs")) {
			nprogs = strtol(argv[i + 1], &end, 10);
			if (*end || nprogs < 1 || nprogs > MAX_PROGS)
				return bad_usage("--progs wants 1 to 16");
		} else {
			return bad_usage("unknown option");
		}
		i += 2;
	}
	if (i >= argc)
		return bad_usage("name the hook");
	hook = argv[i++];
	if (strcmp(hook, "file_mprotect") && strcmp(hook, "file_open"))
		return bad_usage("the hook must be file_mprotect or file_open");
	if (cycles) {
		if (i != argc)
			return bad_usage("--attach-cycles takes no command");
		if (nprogs != 1)
			return bad_usage("--attach-cycles takes no --progs");
	} else if (i + 1 >= argc || strcmp(argv[i], "--")) {
		return bad_usage("give the command after --");
	}

	for (p = 0; p < nprogs; p++) {
		progs[p] = load_prog(&skels[p], hook);
		if (!progs[p])
			goto out;
	}

	if (cycles)
		ret = attach_cycles(progs[0], hook, cycles, rounds);
	else
		ret = run_command(progs, nprogs, hook, argv + i + 1);
out:
	for (p = 0; p < nprogs; p++)
		bench_attach__destroy(skels[p]);
	return ret;
}
