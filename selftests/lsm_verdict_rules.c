// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_verdict_rules: how the verdicts of several LSM programs on one int
 * hook combine. Every LSM program (lsm/, lsm.s/, the lsm_cgroup shim) runs,
 * most recently attached first, and gets the verdict so far as its last
 * argument: 0 until a program denied, then that denial, always in
 * [-4095, 0]. A return value becomes the verdict only while the verdict is
 * 0, and only if it is in [-4095, -1] and not the hook's default; 0, the
 * default and positive values never stick. A denial by BPF leaves no trace
 * of the operation a static LSM would otherwise have carried out.
 *
 *   prctl_allow_after_deny          lsm/ A denies, lsm/ B (runs first) allows
 *   prctl_default_after_deny        ... B returns the default, -ENOSYS
 *   fsparam_allow_after_deny        the same on fs_context_parse_param, B
 *                                   returning 0, then -ENOPARAM
 *   prctl_cgroup_allow_after_deny   B is an lsm_cgroup program allowing (1)
 *   cgroup_set_retval_refused       an lsm_cgroup program's bpf_set_retval()
 *                                   of a value other than an errno does not
 *                                   load: 0 after a denial would allow
 *   return_u64_rejected             the return range: the low 32 bits, an
 *                                   upper half known to be wrong refused,
 *                                   every exit sign extends R0
 *   ctx_read_only                   a store to the context (the arguments,
 *                                   the verdict so far) does not load
 *   prctl_capbset_denied_no_effect  a denied PR_CAPBSET_DROP drops nothing
 *   prctl_ptracer_denied_no_effect  a denied PR_SET_PTRACER records no Yama
 *                                   ptracer exception
 *
 * Each subtest prints its own "# subtest <name>: ok|FAIL|SKIP" line.
 * Programs act only for this process and its children.
 */

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_verdict_rules.skel.h"

/* x86-64 numbers and linux/mount.h values: glibc's sys/mount.h and
 * linux/mount.h clash, and older headers lack them.
 */
#ifndef __NR_fsopen
#define __NR_fsopen	430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig	431
#endif
#define KRSI_FSOPEN_CLOEXEC		1
#define KRSI_FSCONFIG_SET_STRING	1

#define MAX_ERRNO	4095
#define RANGE_LOG	"should have been in [-4095, 0]"
#define YAMA_SCOPE	"/proc/sys/kernel/yama/ptrace_scope"
#define CGROUP_ROOT	"/sys/fs/cgroup"

static int cgroup_fd = -1;
static char log_buf[1 << 16];

/* ---- programs, links and their counters ---- */

/* A program's run counter and its last position in the run order. */
struct counter {
	const char *what;
	volatile int *runs;
	volatile int *seq;
};

#define COUNTER(skel, name, what_) \
	((struct counter){ (what_), &(skel)->bss->name##_runs, &(skel)->bss->name##_seq })

static void counter_reset(struct counter c)
{
	*c.runs = 0;
	*c.seq = 0;
}

/* lsm_verdict_rules loaded with only the programs named (NULL-terminated),
 * acting for this process and on prctl option @option.
 */
static struct lsm_verdict_rules *load(int option, ...)
{
	struct lsm_verdict_rules *skel = lsm_verdict_rules__open();
	struct bpf_program *prog;
	const char *name;
	bool ok = true;
	va_list ap;
	int err;

	if (!KRSI_CHECK_PTR("lsm_verdict_rules__open", skel))
		return NULL;
	skel->rodata->target_tgid = getpid();
	skel->rodata->target_option = option;
	va_start(ap, option);
	while (ok && (name = va_arg(ap, const char *))) {
		prog = bpf_object__find_program_by_name(skel->obj, name);
		ok = KRSI_CHECK_PTR(name, prog);
		if (ok)
			bpf_program__set_autoload(prog, true);
	}
	va_end(ap);
	if (ok) {
		err = lsm_verdict_rules__load(skel);
		ok = KRSI_CHECK_OK("lsm_verdict_rules__load", err);
	}
	if (!ok) {
		lsm_verdict_rules__destroy(skel);
		return NULL;
	}
	return skel;
}

/* lsm_cgroup programs go on the cgroup v2 root, which holds every task. */
static struct bpf_link *attach(struct bpf_program *prog)
{
	struct bpf_link *link;
	int err;

	if (bpf_program__expected_attach_type(prog) == BPF_LSM_CGROUP)
		link = bpf_program__attach_cgroup(prog, cgroup_fd);
	else
		link = bpf_program__attach_lsm(prog);
	err = errno;
	if (!link)
		krsi_fail(__FILE__, __LINE__, "attach %s (errno %d: %s)",
			  bpf_program__name(prog), err, strerror(err));
	return link;
}

/* Both ran, @first before @second: a pair subtest tests nothing if the
 * program attached last did not run first.
 */
static void check_order(struct counter first, struct counter second)
{
	if (!*first.runs)
		krsi_fail(__FILE__, __LINE__, "%s did not run", first.what);
	if (!*second.runs)
		krsi_fail(__FILE__, __LINE__, "%s did not run", second.what);
	if (*first.runs && *second.runs && *first.seq > *second.seq)
		krsi_fail(__FILE__, __LINE__,
			  "%s ran after %s: the program attached last should run first",
			  first.what, second.what);
}

/* Attach @a, then @b, which so runs first; @op must fail with @expected
 * (an errno, 0 for success), and both programs must have run.
 */
static void attach_pair(struct bpf_program *a, struct counter ca,
			struct bpf_program *b, struct counter cb,
			int (*op)(void), const char *what, int expected)
{
	struct bpf_link *la, *lb = NULL;

	counter_reset(ca);
	counter_reset(cb);
	la = attach(a);
	if (!la)
		return;
	lb = attach(b);
	if (lb) {
		KRSI_CHECK_ERRNO(what, expected, op());
		check_order(cb, ca);
	}
	bpf_link__destroy(lb);
	bpf_link__destroy(la);
}

/* ---- the operations ---- */

static int get_dumpable(void)
{
	return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) < 0 ? errno : 0;
}

/* fsconfig(FSCONFIG_SET_STRING, "size", "1m") on a new tmpfs context. */
static int fsconfig_size(void)
{
	int fd, ret, err;

	fd = syscall(__NR_fsopen, "tmpfs", KRSI_FSOPEN_CLOEXEC);
	if (!KRSI_CHECK_SYSCALL("fsopen(\"tmpfs\")", fd))
		return -1;
	ret = syscall(__NR_fsconfig, fd, KRSI_FSCONFIG_SET_STRING, "size", "1m", 0);
	err = ret ? errno : 0;
	close(fd);
	return err;
}

/* Run @fn in a child, which fills @buf (@size bytes) for the parent. */
static bool in_child(void (*fn)(void *buf), void *buf, size_t size)
{
	int p[2], status;
	ssize_t n;
	pid_t pid;

	if (!KRSI_CHECK_SYSCALL("pipe", pipe(p)))
		return false;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		fn(buf);
		_exit(write(p[1], buf, size) == (ssize_t)size ? 0 : 1);
	}
	close(p[1]);
	if (!KRSI_CHECK_SYSCALL("fork", pid)) {
		close(p[0]);
		return false;
	}
	n = read(p[0], buf, size);
	close(p[0]);
	waitpid(pid, &status, 0);
	if (n != (ssize_t)size) {
		krsi_fail(__FILE__, __LINE__, "child exited without reporting (status 0x%x)",
			  status);
		return false;
	}
	return true;
}

/* ---- subtests ---- */

static void prctl_allow_after_deny(void)
{
	struct lsm_verdict_rules *skel;

	skel = load(PR_GET_DUMPABLE, "prctl_deny", "prctl_allow", NULL);
	if (!skel)
		return;
	attach_pair(skel->progs.prctl_deny, COUNTER(skel, deny, "A (lsm/task_prctl, -EPERM)"),
		    skel->progs.prctl_allow, COUNTER(skel, allow, "B (lsm/task_prctl, 0)"),
		    get_dumpable, "prctl(PR_GET_DUMPABLE) under A (-EPERM) and B (0)", EPERM);
	lsm_verdict_rules__destroy(skel);
}

static void prctl_default_after_deny(void)
{
	struct lsm_verdict_rules *skel;

	skel = load(PR_GET_DUMPABLE, "prctl_deny", "prctl_default", NULL);
	if (!skel)
		return;
	attach_pair(skel->progs.prctl_deny, COUNTER(skel, deny, "A (lsm/task_prctl, -EPERM)"),
		    skel->progs.prctl_default, COUNTER(skel, default, "B (lsm/task_prctl, -ENOSYS)"),
		    get_dumpable, "prctl(PR_GET_DUMPABLE) under A (-EPERM) and B (-ENOSYS)", EPERM);
	lsm_verdict_rules__destroy(skel);
}

static void fsparam_allow_after_deny(void)
{
	struct lsm_verdict_rules *skel;

	skel = load(0, "fsparam_deny", "fsparam_allow", "fsparam_default", NULL);
	if (!skel)
		return;
	/* Control: the option parses, so an EPERM below is the programs'. */
	KRSI_CHECK_ERRNO("fsconfig(size=1m) with no program", 0, fsconfig_size());
	attach_pair(skel->progs.fsparam_deny,
		    COUNTER(skel, deny, "A (lsm/fs_context_parse_param, -EPERM)"),
		    skel->progs.fsparam_allow,
		    COUNTER(skel, allow, "B (lsm/fs_context_parse_param, 0)"),
		    fsconfig_size, "fsconfig(size=1m) under A (-EPERM) and B (0)", EPERM);
	attach_pair(skel->progs.fsparam_deny,
		    COUNTER(skel, deny, "A (lsm/fs_context_parse_param, -EPERM)"),
		    skel->progs.fsparam_default,
		    COUNTER(skel, default, "B (lsm/fs_context_parse_param, -ENOPARAM)"),
		    fsconfig_size, "fsconfig(size=1m) under A (-EPERM) and B (-ENOPARAM)", EPERM);
	lsm_verdict_rules__destroy(skel);
}

static void prctl_cgroup_allow_after_deny(void)
{
	struct lsm_verdict_rules *skel;

	skel = load(PR_GET_DUMPABLE, "prctl_deny", "prctl_cgroup_allow", NULL);
	if (!skel)
		return;
	attach_pair(skel->progs.prctl_deny, COUNTER(skel, deny, "A (lsm/task_prctl, -EPERM)"),
		    skel->progs.prctl_cgroup_allow,
		    COUNTER(skel, cgroup, "B (lsm_cgroup/task_prctl, 1)"),
		    get_dumpable, "prctl(PR_GET_DUMPABLE) under A (-EPERM) and lsm_cgroup B (1)",
		    EPERM);
	lsm_verdict_rules__destroy(skel);
}

#define RETVAL_LOG(v)	"bpf_set_retval() R1 has 32-bit range [" v ", " v "], " \
			"should have been in [-4095, -1]"

/* Loading lsm_verdict_rules with only @prog must fail with EINVAL and
 * @log in the verifier's log.
 */
static void check_prog_refused(const char *prog, const char *log)
{
	struct lsm_verdict_rules *skel = lsm_verdict_rules__open();
	struct bpf_program *p;
	int err;

	if (!KRSI_CHECK_PTR("lsm_verdict_rules__open", skel))
		return;
	p = bpf_object__find_program_by_name(skel->obj, prog);
	if (KRSI_CHECK_PTR(prog, p)) {
		bpf_program__set_autoload(p, true);
		log_buf[0] = 0;
		bpf_program__set_log_buf(p, log_buf, sizeof(log_buf));
		err = lsm_verdict_rules__load(skel);
		if (KRSI_CHECK_ERRNO(prog, EINVAL, -err) && !strstr(log_buf, log))
			krsi_fail(__FILE__, __LINE__, "%s: no \"%s\" in the log:\n%s",
				  prog, log, log_buf);
	}
	lsm_verdict_rules__destroy(skel);
}

static void cgroup_set_retval_refused(void)
{
	check_prog_refused("cgroup_retval_positive", RETVAL_LOG("65536"));
	check_prog_refused("cgroup_retval_zero", RETVAL_LOG("0"));
}

#define INSN(c, d, i) { .code = (c), .dst_reg = (d), .imm = (i) }
#define MOV64_IMM(i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, i)
#define MOV32_IMM(i)	INSN(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_0, i)
#define LD_IMM64(v)	INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_0, (__u32)(v)), \
			INSN(0, 0, (__u32)((__u64)(v) >> 32))
#define EXIT_INSN	INSN(BPF_JMP | BPF_EXIT, 0, 0)
/* r0 = ctx[3], file_mprotect's verdict; "return 0" as clang emits it when
 * it knows the low half to be 0: the upper half is unknown to the verifier.
 */
#define CLANG_RET0	{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_0, \
			  .src_reg = BPF_REG_1, .off = 24 }, \
			{ .code = BPF_JMP32 | BPF_JNE | BPF_K, .dst_reg = BPF_REG_0, \
			  .off = 1 }, EXIT_INSN, EXIT_INSN

/* Every exit of a loaded program must come after "r0 <<= 32; r0 s>>= 32",
 * which makes R0 the sign extension of the int the hook returns.
 */
static void check_exits_sign_extend(int fd, const char *what)
{
	struct bpf_insn insns[32];
	struct bpf_prog_info info = {
		.xlated_prog_insns = (__u64)(unsigned long)insns,
		.xlated_prog_len = sizeof(insns),
	};
	__u32 len = sizeof(info);
	unsigned int i, n, exits = 0;

	if (!KRSI_CHECK_OK("bpf_prog_get_info_by_fd",
			   bpf_obj_get_info_by_fd(fd, &info, &len)))
		return;
	n = info.xlated_prog_len / sizeof(insns[0]);
	for (i = 0; i < n && i < sizeof(insns) / sizeof(insns[0]); i++) {
		if (insns[i].code != (BPF_JMP | BPF_EXIT))
			continue;
		exits++;
		if (i < 2 ||
		    insns[i - 2].code != (BPF_ALU64 | BPF_LSH | BPF_K) ||
		    insns[i - 2].dst_reg != BPF_REG_0 || insns[i - 2].imm != 32 ||
		    insns[i - 1].code != (BPF_ALU64 | BPF_ARSH | BPF_K) ||
		    insns[i - 1].dst_reg != BPF_REG_0 || insns[i - 1].imm != 32)
			krsi_fail(__FILE__, __LINE__,
				  "%s: exit at insn %u is not preceded by r0 <<= 32; r0 s>>= 32",
				  what, i);
	}
	if (!exits)
		krsi_fail(__FILE__, __LINE__, "%s: no exit in %u xlated insns", what, n);
}

/* Load @cnt instructions as an LSM program @name on file_mprotect (BTF id
 * @id), the verifier's log in log_buf: its fd, or -errno.
 */
static int load_mprotect_insns(int id, const char *name,
			       const struct bpf_insn *insns, unsigned int cnt)
{
	return krsi_load_lsm_insns(id, name, insns, cnt, log_buf, sizeof(log_buf));
}

/* @fd of a load that must have failed with @err and @log in log_buf. */
static void check_refused(int fd, const char *what, int err, const char *log)
{
	if (fd >= 0) {
		krsi_fail(__FILE__, __LINE__, "%s (expected errno %d: %s, got success)",
			  what, err, strerror(err));
		close(fd);
	} else if (KRSI_CHECK_ERRNO(what, err, -fd) && !strstr(log_buf, log)) {
		krsi_fail(__FILE__, __LINE__, "%s: log lacks \"%s\"; log:\n%s",
			  what, log, log_buf);
	}
}

/* Stores to the context: the arguments and the verdict so far. A store of
 * a register (BPF_STX): the verifier refuses BPF_ST to any context.
 */
#define STORE_R2_AT(o)	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2 }, \
			{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_1, \
			  .src_reg = BPF_REG_2, .off = (o) }
static void ctx_read_only(void)
{
	static const struct {
		const char *what;
		struct bpf_insn insns[4];
	} cases[] = {
		{ "r2 = 0; *(u64 *)(r1 + 24) = r2 (the verdict so far)",
		  { STORE_R2_AT(24), MOV64_IMM(0), EXIT_INSN } },
		{ "r2 = 0; *(u64 *)(r1 + 0) = r2 (the vma argument)",
		  { STORE_R2_AT(0), MOV64_IMM(0), EXIT_INSN } },
	};
	unsigned int i;
	int id, fd;

	id = krsi_vmlinux_btf_id("bpf_lsm_file_mprotect");
	if (id <= 0)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[128];

		fd = load_mprotect_insns(id, "ctx_store", cases[i].insns, 4);
		snprintf(what, sizeof(what), "load of \"%s\"", cases[i].what);
		check_refused(fd, what, EACCES, "invalid bpf_context access");
	}
}

static void return_u64_rejected(void)
{
	static const struct {
		const char *what;
		struct bpf_insn insns[4];
		unsigned int cnt;
		bool loads;
	} cases[] = {
		{ "r0 = 1ULL << 32", { LD_IMM64(1ULL << 32), EXIT_INSN }, 3, false },
		{ "r0 = 1", { MOV64_IMM(1), EXIT_INSN }, 2, false },
		{ "r0 = -1 (64-bit mov)", { MOV64_IMM(-1), EXIT_INSN }, 2, true },
		{ "w0 = -1 (32-bit mov, 0xffffffff)", { MOV32_IMM(-1), EXIT_INSN }, 2, true },
		{ "r0 = 0", { MOV64_IMM(0), EXIT_INSN }, 2, true },
		{ "r0 = verdict; if w0 != 0 exit; exit (low half 0, upper unknown)",
		  { CLANG_RET0 }, 4, true },
	};
	unsigned int i;
	int id, fd;

	id = krsi_vmlinux_btf_id("bpf_lsm_file_mprotect");
	if (id <= 0)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[128];

		fd = load_mprotect_insns(id, "verdict_range", cases[i].insns,
					 cases[i].cnt);
		snprintf(what, sizeof(what), "load of \"%s; exit\"", cases[i].what);
		if (!cases[i].loads) {
			check_refused(fd, what, EINVAL, RANGE_LOG);
		} else if (fd < 0) {
			krsi_fail(__FILE__, __LINE__,
				  "%s (expected success, got %d: %s); log:\n%s",
				  what, fd, strerror(-fd), log_buf);
		} else {
			check_exits_sign_extend(fd, what);
			close(fd);
		}
	}
}

/* PR_CAPBSET_READ before, the errno of PR_CAPBSET_DROP, PR_CAPBSET_READ after. */
static void capbset_child(void *buf)
{
	int *r = buf;

	r[0] = prctl(PR_CAPBSET_READ, CAP_SYS_NICE, 0, 0, 0);
	r[1] = prctl(PR_CAPBSET_DROP, CAP_SYS_NICE, 0, 0, 0) ? errno : 0;
	r[2] = prctl(PR_CAPBSET_READ, CAP_SYS_NICE, 0, 0, 0);
}

static void prctl_capbset_denied_no_effect(void)
{
	struct lsm_verdict_rules *skel;
	struct bpf_link *link;
	struct counter c;
	int r[3];

	skel = load(PR_CAPBSET_DROP, "prctl_deny", NULL);
	if (!skel)
		return;
	c = COUNTER(skel, deny, "lsm/task_prctl denying PR_CAPBSET_DROP");
	counter_reset(c);
	link = attach(skel->progs.prctl_deny);
	if (link && in_child(capbset_child, r, sizeof(r))) {
		KRSI_CHECK_EQ("PR_CAPBSET_READ of CAP_SYS_NICE before the drop (root child)",
			      1, r[0]);
		KRSI_CHECK_ERRNO("prctl(PR_CAPBSET_DROP, CAP_SYS_NICE) under the program",
				 EPERM, r[1]);
		KRSI_CHECK_EQ("PR_CAPBSET_READ of CAP_SYS_NICE after the denied drop",
			      1, r[2]);
		if (!*c.runs)
			krsi_fail(__FILE__, __LINE__, "%s did not run", c.what);
	}
	bpf_link__destroy(link);
	lsm_verdict_rules__destroy(skel);
}

/* What a ptrace child reports: at which step it stopped, and its errno. */
enum { STEP_CAPS, STEP_DONE };
struct child_msg {
	int step;
	int err;
};

/* Without CAP_SYS_PTRACE anywhere (bounding set included, so nothing
 * brings it back), Yama's scope 1 applies and commoncap compares the
 * permitted sets, which both children trim alike. 0 or an errno.
 */
static int drop_cap_sys_ptrace(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	__u32 bit = 1u << (CAP_SYS_PTRACE % 32);
	int i = CAP_SYS_PTRACE / 32;

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0))
		return errno;
	if (syscall(SYS_capget, &hdr, data))
		return errno;
	data[i].effective &= ~bit;
	data[i].permitted &= ~bit;
	data[i].inheritable &= ~bit;
	if (syscall(SYS_capset, &hdr, data))
		return errno;
	return 0;
}

static void send_msg(int fd, int step, int err)
{
	struct child_msg m = { step, err };

	if (write(fd, &m, sizeof(m)) != sizeof(m))
		_exit(1);
}

/* Waits for the tracee's pid, then tries PTRACE_ATTACH. */
static void tracer_main(int in, int out)
{
	int err = drop_cap_sys_ptrace();
	pid_t tracee;

	if (err) {
		send_msg(out, STEP_CAPS, err);
		_exit(1);
	}
	if (read(in, &tracee, sizeof(tracee)) != sizeof(tracee))
		_exit(1);
	err = ptrace(PTRACE_ATTACH, tracee, NULL, NULL) ? errno : 0;
	if (!err) {
		waitpid(tracee, NULL, __WALL);
		ptrace(PTRACE_DETACH, tracee, NULL, NULL);
	}
	send_msg(out, STEP_DONE, err);
	_exit(0);
}

/* Names @tracer its ptracer if @set_ptracer, then waits to be killed. */
static void tracee_main(pid_t tracer, bool set_ptracer, int out)
{
	int err = drop_cap_sys_ptrace();

	if (err) {
		send_msg(out, STEP_CAPS, err);
		_exit(1);
	}
	if (set_ptracer)
		err = prctl(PR_SET_PTRACER, tracer, 0, 0, 0) ? errno : 0;
	send_msg(out, STEP_DONE, err);
	for (;;)
		pause();
}

static bool read_msg(int fd, const char *who, int *err)
{
	struct child_msg m;

	if (read(fd, &m, sizeof(m)) != sizeof(m)) {
		krsi_fail(__FILE__, __LINE__, "%s exited without reporting", who);
		return false;
	}
	if (m.step == STEP_CAPS) {
		krsi_fail(__FILE__, __LINE__, "%s could not drop CAP_SYS_PTRACE: %s",
			  who, strerror(m.err));
		return false;
	}
	*err = m.err;
	return true;
}

/* Two siblings, neither an ancestor of the other: the tracee names the
 * tracer with PR_SET_PTRACER if @set_ptracer, then the tracer tries
 * PTRACE_ATTACH. False if the setup failed (reported); else the errnos
 * (0: success) of the prctl and of the attach.
 */
static bool ptrace_siblings(bool set_ptracer, int *prctl_err, int *attach_err)
{
	int to_tracer[2] = { -1, -1 }, from_tracer[2] = { -1, -1 };
	int from_tracee[2] = { -1, -1 };
	pid_t tracer = -1, tracee = -1;
	bool ok = false;
	unsigned int i;
	int *fds[] = { to_tracer, from_tracer, from_tracee };

	*prctl_err = *attach_err = 0;
	if (!KRSI_CHECK_SYSCALL("pipe", pipe(to_tracer)) ||
	    !KRSI_CHECK_SYSCALL("pipe", pipe(from_tracer)) ||
	    !KRSI_CHECK_SYSCALL("pipe", pipe(from_tracee)))
		goto out;
	fflush(stdout);
	tracer = fork();
	if (tracer == 0) {
		close(to_tracer[1]);
		close(from_tracer[0]);
		close(from_tracee[0]);
		close(from_tracee[1]);
		tracer_main(to_tracer[0], from_tracer[1]);
	}
	if (!KRSI_CHECK_SYSCALL("fork tracer", tracer))
		goto out;
	tracee = fork();
	if (tracee == 0) {
		/* Not the tracer's pipes: a dead tracer must read as EOF. */
		close(to_tracer[0]);
		close(to_tracer[1]);
		close(from_tracer[0]);
		close(from_tracer[1]);
		close(from_tracee[0]);
		tracee_main(tracer, set_ptracer, from_tracee[1]);
	}
	if (!KRSI_CHECK_SYSCALL("fork tracee", tracee))
		goto out;
	/* The parent keeps only its ends, so a dead child reads as EOF. */
	close(to_tracer[0]);
	close(from_tracer[1]);
	close(from_tracee[1]);
	to_tracer[0] = from_tracer[1] = from_tracee[1] = -1;

	if (!read_msg(from_tracee[0], "tracee", prctl_err))
		goto out;
	if (write(to_tracer[1], &tracee, sizeof(tracee)) != sizeof(tracee)) {
		krsi_fail(__FILE__, __LINE__, "cannot send the tracee's pid to the tracer");
		goto out;
	}
	ok = read_msg(from_tracer[0], "tracer", attach_err);
out:
	if (tracee > 0) {
		kill(tracee, SIGKILL);
		waitpid(tracee, NULL, 0);
	}
	if (tracer > 0) {
		kill(tracer, SIGKILL);
		waitpid(tracer, NULL, 0);
	}
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (fds[i][0] >= 0)
			close(fds[i][0]);
		if (fds[i][1] >= 0)
			close(fds[i][1]);
	}
	return ok;
}

static bool write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, s, strlen(s));
		close(fd);
	}
	return n == (ssize_t)strlen(s);
}

static void prctl_ptracer_denied_no_effect(void)
{
	struct lsm_verdict_rules *skel = NULL;
	struct bpf_link *link = NULL;
	int prctl_err, attach_err, fd;
	char old[16] = "";
	struct counter c;
	char eb[64], eb2[64];
	ssize_t n;

	fd = open(YAMA_SCOPE, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		krsi_skip("Yama is not active (no " YAMA_SCOPE ")");
		return;
	}
	if (!KRSI_CHECK_SYSCALL("open " YAMA_SCOPE, fd))
		return;
	n = read(fd, old, sizeof(old) - 1);
	close(fd);
	if (!KRSI_CHECK_SYSCALL("read " YAMA_SCOPE, n))
		return;
	old[n] = 0;
	if (!write_file(YAMA_SCOPE, "1\n")) {
		krsi_fail(__FILE__, __LINE__, "cannot set %s to 1 (was %.*s): %s",
			  YAMA_SCOPE, (int)strcspn(old, "\n"), old, strerror(errno));
		return;
	}

	/* Control 1: without an exception, scope 1 refuses the sibling. */
	if (ptrace_siblings(false, &prctl_err, &attach_err) && attach_err != EPERM)
		krsi_fail(__FILE__, __LINE__,
			  "control without PR_SET_PTRACER, no program: PTRACE_ATTACH by a sibling should fail with EPERM under ptrace_scope 1, got %s: an EPERM below would prove nothing",
			  krsi_errstr(attach_err, eb, sizeof(eb)));
	/* Control 2: with the exception, the same sibling may attach. */
	if (ptrace_siblings(true, &prctl_err, &attach_err) &&
	    (prctl_err || attach_err))
		krsi_fail(__FILE__, __LINE__,
			  "control with PR_SET_PTRACER, no program: prctl %s, PTRACE_ATTACH %s; both should succeed: the test could not see an exception left behind",
			  krsi_errstr(prctl_err, eb, sizeof(eb)),
			  krsi_errstr(attach_err, eb2, sizeof(eb2)));

	skel = load(PR_SET_PTRACER, "prctl_deny", NULL);
	if (!skel)
		goto out;
	c = COUNTER(skel, deny, "lsm/task_prctl denying PR_SET_PTRACER");
	counter_reset(c);
	link = attach(skel->progs.prctl_deny);
	if (link && ptrace_siblings(true, &prctl_err, &attach_err)) {
		KRSI_CHECK_ERRNO("prctl(PR_SET_PTRACER, tracer) under the program",
				 EPERM, prctl_err);
		KRSI_CHECK_ERRNO("PTRACE_ATTACH after the denied PR_SET_PTRACER",
				 EPERM, attach_err);
		if (!*c.runs)
			krsi_fail(__FILE__, __LINE__, "%s did not run", c.what);
	}
	bpf_link__destroy(link);
	lsm_verdict_rules__destroy(skel);
out:
	if (!write_file(YAMA_SCOPE, old))
		krsi_fail(__FILE__, __LINE__, "cannot restore %s to %.*s: %s", YAMA_SCOPE,
			  (int)strcspn(old, "\n"), old, strerror(errno));
}

/* ---- main ---- */

static bool any_failed;
static const char *skipped;

/* Each subtest starts with a clean verdict, so its line is its own. */
static void subtest(const char *name, void (*fn)(void))
{
	krsi_failed = 0;
	krsi_skip_reason = NULL;
	fn();
	if (krsi_failed) {
		any_failed = true;
		krsi_note("subtest %s: FAIL", name);
	} else if (krsi_skip_reason) {
		skipped = krsi_skip_reason;
		krsi_note("subtest %s: SKIP (%s)", name, krsi_skip_reason);
	} else {
		krsi_note("subtest %s: ok", name);
	}
}

int main(void)
{
	struct krsi_mark mark0;

	krsi_init();
	alarm(600);	/* a hang is a failure: TCG runs this in well under 60 s */
	cgroup_fd = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgroup_fd < 0)
		krsi_note("cannot open %s: %m; the lsm_cgroup attaches will fail",
			  CGROUP_ROOT);
	mark0 = krsi_mark_objects();

	subtest("prctl_allow_after_deny", prctl_allow_after_deny);
	subtest("prctl_default_after_deny", prctl_default_after_deny);
	subtest("fsparam_allow_after_deny", fsparam_allow_after_deny);
	subtest("prctl_cgroup_allow_after_deny", prctl_cgroup_allow_after_deny);
	subtest("cgroup_set_retval_refused", cgroup_set_retval_refused);
	subtest("return_u64_rejected", return_u64_rejected);
	subtest("ctx_read_only", ctx_read_only);
	subtest("prctl_capbset_denied_no_effect", prctl_capbset_denied_no_effect);
	subtest("prctl_ptracer_denied_no_effect", prctl_ptracer_denied_no_effect);

	krsi_failed = any_failed;
	krsi_skip_reason = skipped;
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	return krsi_exit("lsm_verdict_rules");
}
