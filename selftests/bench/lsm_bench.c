// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_bench: the cost of system calls that pass LSM hooks, in guest ns.
 *
 * Under QEMU TCG with "-icount shift=0,sleep=off" guest time advances by
 * exactly 1 ns per executed instruction (plus the idle time QEMU skips, of
 * which a CPU-bound loop on one vCPU has none), so CLOCK_MONOTONIC deltas
 * divided by the iteration count are instructions per operation.
 *
 * Each round of an operation runs in a freshly exec'd copy of this program
 * (unless -F): it opens its files and what the operation needs besides (an
 * eventfd, a pipe, a loopback TCP listener), runs a warm-up of a tenth of
 * the iterations, then the timed iterations, and reports ns per operation
 * through a pipe.  A fresh exec because the instruction count of some
 * system calls depends on where the kernel happened to put the process's
 * objects: the same binary shows e.g. 1189 or 1197 instructions per pread
 * from one exec to the next, and the same in every round within one.  New
 * processes draw again.  scripts/bench-report.py takes the min= of each
 * boot: some operations run in one of two regimes per round (socket +
 * close on Debian's config, where the cheaper rounds run more RCU softirqs
 * in the loop), in proportions that change per boot, and the minimum is
 * what three runs of make bench reproduce.
 * The file operations also cycle over NR_FILES files for the same reason.
 *
 * The operations: open_close, stat, pread, mprotect, mmap_munmap,
 * fork_wait, socket_close, eventfd, pipe, execve, tcp_connect, and getppid,
 * which passes no hook, as the control.  execve runs a copy of this binary
 * in the test directory (on the guest's tmpfs rather than 9p, whose round
 * trips to the host would let the clock jump while the vCPU idles).
 * tcp_connect needs the loopback interface up (the guest's init.sh
 * brings it up).
 *
 * One line per operation goes to stdout:
 *
 *   bench op=<name> iters=<n> rounds=<r> ns_per_op=<median> min=<m>
 *         median=<m> max=<x> spread_pct=<(max-min)/min in %>
 *         round_ns=<round 1>;<round 2>;...
 *
 * Any failed system call stops the run with exit status 1 and a "# " line
 * saying which.
 *
 * usage: lsm_bench [-r rounds] [-s scale%] [-d dir] [-o op[,op...]] [-F] [-v] [-l]
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS	64
#define NR_FILES	8
/* argv[1] of a round's exec: lsm_bench -X <op> <iters> <dir> <fd> */
#define ROUND_FLAG	"-X"
/* argv[1] of the execve operation's child: exit 0 at once. */
#define EXEC_FLAG	"-E"

struct bench_op {
	const char *name;
	unsigned long iters;	/* per round, at scale 100 % */
	int (*run)(unsigned long n);
	int (*setup)(void);	/* per round, after round_setup(); or NULL */
	bool selected;
};

static char file_path[NR_FILES][4096];
static int file_fd[NR_FILES];
static char exe_path[4096];
static char *prot_page;
static long page_size;
static int event_fd = -1;
static int pipe_fd[2] = { -1, -1 };
static int listen_fd = -1;
static struct sockaddr_in listen_addr;

static int fail(const char *what)
{
	printf("# lsm_bench: %s: %s\n", what, strerror(errno));
	return -1;
}

/* open(2) + close(2) of a tmpfs file: file_open, file_free, ... */
static int run_open_close(unsigned long n)
{
	unsigned long i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = open(file_path[i % NR_FILES], O_RDONLY);
		if (fd < 0)
			return fail("open");
		close(fd);
	}
	return 0;
}

/* stat(2): inode_getattr. */
static int run_stat(unsigned long n)
{
	struct stat st;
	unsigned long i;

	for (i = 0; i < n; i++)
		if (stat(file_path[i % NR_FILES], &st))
			return fail("stat");
	return 0;
}

/* 1-byte pread(2): file_permission. */
static int run_pread(unsigned long n)
{
	unsigned long i;
	char c;

	for (i = 0; i < n; i++)
		if (pread(file_fd[i % NR_FILES], &c, 1, 0) != 1)
			return fail("pread");
	return 0;
}

/*
 * mprotect(2) of one page between PROT_READ and PROT_READ|PROT_WRITE:
 * file_mprotect.  The page has PROT_NONE neighbours of its own mapping,
 * so its VMA never merges with another one and every call is alike.
 */
static int run_mprotect(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		int prot = i & 1 ? PROT_READ | PROT_WRITE : PROT_READ;

		if (mprotect(prot_page, page_size, prot))
			return fail("mprotect");
	}
	/* n is even: the page ends as it started, PROT_READ|PROT_WRITE. */
	return 0;
}

/* mmap(2) + munmap(2) of an anonymous page: mmap_addr, mmap_file, ... */
static int run_mmap_munmap(unsigned long n)
{
	unsigned long i;
	void *p;

	for (i = 0; i < n; i++) {
		p = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return fail("mmap");
		if (munmap(p, page_size))
			return fail("munmap");
	}
	return 0;
}

/* waitpid(2) for a child that must have exited 0; 0 or -1. */
static int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = ECHILD;
		return fail("child status");
	}
	return 0;
}

/* fork(2), the child _exit(0)s, waitpid(2): task_alloc, ... */
static int run_fork_wait(unsigned long n)
{
	unsigned long i;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			return fail("fork");
		if (pid == 0)
			_exit(0);
		if (reap(pid))
			return -1;
	}
	return 0;
}

/* socket(AF_UNIX, SOCK_DGRAM) + close(2): socket_create, ... */
static int run_socket_close(unsigned long n)
{
	unsigned long i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		if (fd < 0)
			return fail("socket");
		close(fd);
	}
	return 0;
}

/* An 8-byte write(2) + read(2) of an eventfd: file_permission twice. */
static int run_eventfd(unsigned long n)
{
	unsigned long i;
	uint64_t v = 1;

	for (i = 0; i < n; i++) {
		if (write(event_fd, &v, sizeof(v)) != sizeof(v))
			return fail("eventfd write");
		if (read(event_fd, &v, sizeof(v)) != sizeof(v))
			return fail("eventfd read");
	}
	return 0;
}

/* A 1-byte write(2) + read(2) through a pipe: file_permission twice. */
static int run_pipe(unsigned long n)
{
	unsigned long i;
	char c = 'x';

	for (i = 0; i < n; i++) {
		if (write(pipe_fd[1], &c, 1) != 1)
			return fail("pipe write");
		if (read(pipe_fd[0], &c, 1) != 1)
			return fail("pipe read");
	}
	return 0;
}

/*
 * fork(2), the child execve(2)s this (static) binary with EXEC_FLAG, which
 * exits 0 at once, waitpid(2): task_alloc, bprm_creds_for_exec,
 * bprm_check_security, bprm_committing_creds, bprm_committed_creds,
 * file_open, mmap_file, file_mprotect, task_free, ...
 */
static int run_execve(unsigned long n)
{
	unsigned long i;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			return fail("fork");
		if (pid == 0) {
			execl(exe_path, "lsm_bench", EXEC_FLAG, (char *)NULL);
			fail("execve");
			_exit(1);
		}
		if (reap(pid))
			return -1;
	}
	return 0;
}

/*
 * A loopback TCP connection: socket(2), connect(2) to the round's listener
 * on 127.0.0.1, accept(2), close(2) of both ends: socket_create,
 * socket_post_create, sk_alloc, socket_connect, inet_conn_request,
 * inet_csk_clone, inet_conn_established, socket_accept, sock_graft,
 * socket_setsockopt, sk_free, ...  The handshake runs to its end within
 * connect(2), in the softirqs of the loopback transmits.  The client sets
 * SO_LINGER 0 before its close, which then sends a reset: neither end
 * stays in TIME_WAIT, so the connections do not pile up and use up the
 * local ports, and the last iteration costs what the first one did.
 */
static int run_tcp_connect(unsigned long n)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	unsigned long i;
	int c, s;

	for (i = 0; i < n; i++) {
		c = socket(AF_INET, SOCK_STREAM, 0);
		if (c < 0)
			return fail("socket");
		if (connect(c, (struct sockaddr *)&listen_addr,
			    sizeof(listen_addr))) {
			close(c);
			return fail("connect to 127.0.0.1");
		}
		s = accept(listen_fd, NULL, NULL);
		if (s < 0) {
			close(c);
			return fail("accept");
		}
		if (setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg))) {
			close(s);
			close(c);
			return fail("setsockopt SO_LINGER");
		}
		close(c);
		close(s);
	}
	return 0;
}

/* getppid(2) passes no LSM hook: the control. */
static int run_getppid(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

/* Per round, for eventfd: the eventfd, its count 0. */
static int setup_eventfd(void)
{
	event_fd = eventfd(0, 0);
	return event_fd < 0 ? fail("eventfd") : 0;
}

/* Per round, for pipe: the pipe, empty. */
static int setup_pipe(void)
{
	return pipe(pipe_fd) ? fail("pipe") : 0;
}

/*
 * Per round, for tcp_connect: a listener on 127.0.0.1 at a port of the
 * kernel's choosing.  One connection at a time waits in its queue.  With
 * lo down, connect(2) would only time out, after minutes of retries.
 */
static int setup_tcp_listener(void)
{
	socklen_t len = sizeof(listen_addr);
	struct ifreq ifr;

	listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (listen_fd < 0)
		return fail("socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(listen_fd, SIOCGIFFLAGS, &ifr))
		return fail("SIOCGIFFLAGS lo");
	if (!(ifr.ifr_flags & IFF_UP)) {
		errno = ENETDOWN;
		return fail("lo is down (bring it up: ip link set lo up)");
	}
	memset(&listen_addr, 0, sizeof(listen_addr));
	listen_addr.sin_family = AF_INET;
	listen_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	listen_addr.sin_port = 0;
	if (bind(listen_fd, (struct sockaddr *)&listen_addr,
		 sizeof(listen_addr)))
		return fail("bind 127.0.0.1");
	if (listen(listen_fd, 64))
		return fail("listen");
	if (getsockname(listen_fd, (struct sockaddr *)&listen_addr, &len))
		return fail("getsockname");
	return 0;
}

/*
 * Iteration counts: 25-50 M guest instructions per round on stock 6.1,
 * i.e. ~0.05 s of host time per round under icount TCG, except for
 * open_close and socket_close (~400 M): their files, inodes and sockets
 * are freed by RCU callbacks, and on a HZ=250 kernel (Debian's) a short
 * round ends before those frees settle, so its cost depended on where in
 * the RCU cycle it started (on Debian's config, rounds of 6000 socket_close
 * differed by up to 6.1 % within a boot, rounds of 40000 by 3.6 %).  All even
 * (run_mprotect relies on it) and multiples of 2 * NR_FILES.  execve's
 * are fewer than the 20 * NR_FILES that a reduced scale (-s) keeps at
 * least: it keeps its own instead.
 */
static struct bench_op ops[] = {
	{ .name = "open_close", .iters = 40000, .run = run_open_close },
	{ .name = "stat", .iters = 20000, .run = run_stat },
	{ .name = "pread", .iters = 40000, .run = run_pread },
	{ .name = "mprotect", .iters = 20000, .run = run_mprotect },
	{ .name = "mmap_munmap", .iters = 4000, .run = run_mmap_munmap },
	{ .name = "fork_wait", .iters = 200, .run = run_fork_wait },
	{ .name = "socket_close", .iters = 40000, .run = run_socket_close },
	{ .name = "eventfd", .iters = 24000, .run = run_eventfd,
	  .setup = setup_eventfd },
	{ .name = "pipe", .iters = 16000, .run = run_pipe,
	  .setup = setup_pipe },
	{ .name = "execve", .iters = 64, .run = run_execve },
	{ .name = "tcp_connect", .iters = 800, .run = run_tcp_connect,
	  .setup = setup_tcp_listener },
	{ .name = "getppid", .iters = 100000, .run = run_getppid },
};

#define NR_OPS	(sizeof(ops) / sizeof(ops[0]))

static struct bench_op *find_op(const char *name)
{
	size_t i;

	for (i = 0; i < NR_OPS; i++)
		if (!strcmp(ops[i].name, name))
			return &ops[i];
	return NULL;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void set_paths(const char *dir)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		snprintf(file_path[i], sizeof(file_path[i]),
			 "%s/lsm-bench.%d.dat", dir, i);
	snprintf(exe_path, sizeof(exe_path), "%s/lsm-bench.exe", dir);
}

/* A copy of this binary in dir, for execve; 0 or -1. */
static int copy_exe(void)
{
	char buf[65536];
	ssize_t len;
	int in, out;

	in = open("/proc/self/exe", O_RDONLY);
	if (in < 0)
		return fail("/proc/self/exe");
	out = open(exe_path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	if (out < 0) {
		close(in);
		return fail(exe_path);
	}
	while ((len = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, len) != len) {
			len = -1;
			break;
		}
	if (len < 0) {
		fail("copy /proc/self/exe");
		close(in);
		close(out);
		return -1;
	}
	close(in);
	if (close(out))
		return fail(exe_path);
	return 0;
}

/* Once, in the parent: the test files, one page of data each. */
static int create_files(const char *dir)
{
	char buf[4096];
	int i, fd;

	set_paths(dir);
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < NR_FILES; i++) {
		fd = open(file_path[i], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			return fail(file_path[i]);
		if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
			close(fd);
			return fail("write");
		}
		close(fd);
	}
	return copy_exe();
}

/* Per round: the files to pread and the page to mprotect. */
static int round_setup(void)
{
	void *p;
	int i;

	page_size = sysconf(_SC_PAGESIZE);
	for (i = 0; i < NR_FILES; i++) {
		file_fd[i] = open(file_path[i], O_RDONLY);
		if (file_fd[i] < 0)
			return fail(file_path[i]);
	}
	/* PROT_NONE | page | PROT_NONE, all of one mapping. */
	p = mmap(NULL, 3 * page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return fail("mmap");
	prot_page = (char *)p + page_size;
	if (mprotect(prot_page, page_size, PROT_READ | PROT_WRITE))
		return fail("mprotect");
	prot_page[0] = 1;
	return 0;
}

/* One round: set up, warm up, time; ns per operation in *per_op. */
static int run_round(struct bench_op *op, unsigned long iters, double *per_op)
{
	unsigned long warm = (iters / 10) & ~1UL;
	long long t0, t1;

	if (round_setup() || (op->setup && op->setup()) ||
	    op->run(warm ? warm : 2))
		return -1;
	t0 = now_ns();
	if (op->run(iters))
		return -1;
	t1 = now_ns();
	*per_op = (double)(t1 - t0) / iters;
	return 0;
}

/* The exec'd side of a round: lsm_bench -X <op> <iters> <dir> <fd>. */
static int round_main(int argc, char **argv)
{
	struct bench_op *op;
	double per_op;
	FILE *out;

	op = argc == 6 ? find_op(argv[2]) : NULL;
	if (!op) {
		fprintf(stderr, "lsm_bench: %s is internal: lsm_bench -h shows the options\n",
			ROUND_FLAG);
		return 2;
	}
	set_paths(argv[4]);
	if (run_round(op, strtoul(argv[3], NULL, 10), &per_op))
		return 1;
	out = fdopen(atoi(argv[5]), "w");
	if (!out || fprintf(out, "%.6f\n", per_op) < 0 || fclose(out))
		return fail("report the round");
	return 0;
}

/* A round in a fresh exec of this program; 0 or -1. */
static int exec_round(struct bench_op *op, unsigned long iters,
		      const char *dir, double *per_op)
{
	char iters_s[32], fd_s[16], buf[64] = "";
	int pfd[2], status;
	ssize_t len;
	pid_t pid;

	if (pipe(pfd))
		return fail("pipe");
	snprintf(iters_s, sizeof(iters_s), "%lu", iters);
	snprintf(fd_s, sizeof(fd_s), "%d", pfd[1]);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		close(pfd[0]);
		execl("/proc/self/exe", "lsm_bench", ROUND_FLAG, op->name,
		      iters_s, dir, fd_s, (char *)NULL);
		fail("exec /proc/self/exe");
		_exit(1);
	}
	close(pfd[1]);
	len = read(pfd[0], buf, sizeof(buf) - 1);
	close(pfd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) || len <= 0) {
		printf("# lsm_bench: a round of %s failed\n", op->name);
		return -1;
	}
	*per_op = strtod(buf, NULL);
	return 0;
}

static void round_cleanup(void)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		close(file_fd[i]);
	munmap(prot_page - page_size, 3 * page_size);
	if (event_fd >= 0)
		close(event_fd);
	if (pipe_fd[0] >= 0) {
		close(pipe_fd[0]);
		close(pipe_fd[1]);
	}
	if (listen_fd >= 0)
		close(listen_fd);
	event_fd = listen_fd = pipe_fd[0] = pipe_fd[1] = -1;
}

static int bench_one(struct bench_op *op, unsigned long iters, int rounds,
		     const char *dir, bool fresh, bool verbose)
{
	double per_op[MAX_ROUNDS], in_order[MAX_ROUNDS], median;
	int r, err;

	for (r = 0; r < rounds; r++) {
		if (fresh) {
			err = exec_round(op, iters, dir, &per_op[r]);
		} else {
			err = run_round(op, iters, &per_op[r]);
			round_cleanup();
		}
		if (err)
			return -1;
		if (verbose)
			printf("# op=%s round=%d ns_per_op=%.2f\n", op->name,
			       r, per_op[r]);
	}
	memcpy(in_order, per_op, rounds * sizeof(per_op[0]));
	qsort(per_op, rounds, sizeof(per_op[0]), cmp_double);
	median = rounds & 1 ? per_op[rounds / 2] :
		 (per_op[rounds / 2 - 1] + per_op[rounds / 2]) / 2;
	printf("bench op=%s iters=%lu rounds=%d ns_per_op=%.2f min=%.2f median=%.2f max=%.2f spread_pct=%.3f round_ns=",
	       op->name, iters, rounds, median, per_op[0], median,
	       per_op[rounds - 1],
	       (per_op[rounds - 1] - per_op[0]) / per_op[0] * 100);
	/* Every round, in the order run: which regime each landed in. */
	for (r = 0; r < rounds; r++)
		printf("%s%.2f", r ? ";" : "", in_order[r]);
	printf("\n");
	return 0;
}

static int select_ops(char *list)
{
	struct bench_op *op;
	char *name, *save = NULL;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		op = find_op(name);
		if (!op) {
			fprintf(stderr, "lsm_bench: unknown op '%s'; lsm_bench -l lists them\n",
				name);
			return -1;
		}
		op->selected = true;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: lsm_bench [-r rounds (1-%d, default 7)] [-s scale%% of the iterations (default 100)] [-d dir for the test files (default /tmp)] [-o op[,op...]] [-F: all rounds in this process] [-v: each round] [-l: list the ops]\n",
		MAX_ROUNDS);
}

int main(int argc, char **argv)
{
	bool verbose = false, any = false, fresh = true;
	unsigned long scale = 100, iters, least;
	const char *dir = "/tmp";
	int rounds = 7, c, ret = 0;
	struct timespec res;
	size_t i;
	char *end;

	/* First: the execve operation times this path. */
	if (argc > 1 && !strcmp(argv[1], EXEC_FLAG))
		return 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], ROUND_FLAG))
		return round_main(argc, argv);

	while ((c = getopt(argc, argv, "r:s:d:o:Fvlh")) != -1) {
		switch (c) {
		case 'r':
			rounds = strtol(optarg, &end, 10);
			if (*end || rounds < 1 || rounds > MAX_ROUNDS) {
				fprintf(stderr, "lsm_bench: -r wants a number of rounds from 1 to %d\n",
					MAX_ROUNDS);
				return 2;
			}
			break;
		case 's':
			scale = strtoul(optarg, &end, 10);
			if (*end || !scale || scale > 100000) {
				fprintf(stderr, "lsm_bench: -s wants a percentage of the default iterations, 1 to 100000\n");
				return 2;
			}
			break;
		case 'd':
			dir = optarg;
			break;
		case 'o':
			if (select_ops(optarg))
				return 2;
			any = true;
			break;
		case 'F':
			fresh = false;
			break;
		case 'v':
			verbose = true;
			break;
		case 'l':
			for (i = 0; i < NR_OPS; i++)
				printf("%s %lu\n", ops[i].name, ops[i].iters);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "lsm_bench: unexpected argument '%s'; lsm_bench -h shows the options\n",
			argv[optind]);
		return 2;
	}

	if (create_files(dir))
		return 1;
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("bench info clock=CLOCK_MONOTONIC res_ns=%ld rounds=%d scale_pct=%lu fresh_exec=%d pid=%d\n",
	       res.tv_nsec, rounds, scale, fresh, (int)getpid());

	for (i = 0; i < NR_OPS; i++) {
		if (any && !ops[i].selected)
			continue;
		/*
		 * A multiple of 2 * NR_FILES, at least 10 times that, or
		 * the table's count if less.
		 */
		iters = ops[i].iters * scale / 100 / (2 * NR_FILES) *
			(2 * NR_FILES);
		least = ops[i].iters < 20 * NR_FILES ? ops[i].iters :
			20 * NR_FILES;
		if (iters < least)
			iters = least;
		if (bench_one(&ops[i], iters, rounds, dir, fresh, verbose)) {
			ret = 1;
			break;
		}
	}

	for (i = 0; i < NR_FILES; i++)
		unlink(file_path[i]);
	unlink(exe_path);
	return ret;
}
