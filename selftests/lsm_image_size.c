// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_image_size: the largest LSM trampoline image must be built and work.
 * 38 LSM programs (BPF_MAX_TRAMP_LINKS) on the int hook task_prctl, all
 * interpreted (bpf_jit_enable 0 while they load) and each linked with a
 * 64-bit bpf_cookie: the cookie and the program's instructions then take a
 * 10-byte mov each, the largest code per program an image can have. The
 * image must be sized for it: on x86-64 6.12 the sizing pass emits into a
 * scratch buffer of one page, which about 37 such programs overflow before
 * the end-of-buffer check, writing past it (an oops, or garbage sizes).
 *
 * Every link must attach; with all 38 attached, prctl(PR_GET_DUMPABLE)
 * fails with EPERM, denied by the program attached first, which runs last
 * (the others allow); with that program's link closed, it succeeds again.
 * The denying program acts only on this process's PR_GET_DUMPABLE, so the
 * rest of the guest is unaffected. Skipped on a kernel whose JIT cannot be
 * turned off (CONFIG_BPF_JIT_ALWAYS_ON).
 */

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"

#define NR_PROGS	38	/* BPF_MAX_TRAMP_LINKS */
#define JIT_ENABLE	"/proc/sys/net/core/bpf_jit_enable"
#define COOKIE(i)	((1ULL << 40) | (i))

static char log_buf[1 << 16];
/* bpf_jit_enable before the test, "" if it was not changed. */
static char jit_old[16];

#define INSN(c, d, s, o, i) \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

/* Program 0: -EPERM for this process's PR_GET_DUMPABLE, else 0. Its
 * context holds task_prctl's option (an int) at offset 0.
 */
#define DENY_INSNS(tgid) {						\
	INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0),	\
	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid), \
	INSN(BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32),		\
	INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 4, (tgid)),	\
	INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_6, 0, 0),	\
	INSN(BPF_JMP32 | BPF_JNE | BPF_K, BPF_REG_2, 0, 2, PR_GET_DUMPABLE), \
	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, -EPERM),	\
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),				\
	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),		\
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),				\
}

/* Programs 1 to 37: allow. */
#define ALLOW_INSNS {							\
	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),		\
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),				\
}

/* Set bpf_jit_enable to 0, saving the old value. False if the test cannot
 * go on: failed, or skipped when the JIT is always on.
 */
static bool jit_off(void)
{
	ssize_t n;
	int fd, err;

	fd = open(JIT_ENABLE, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		krsi_note("no %s: no JIT, the programs are interpreted", JIT_ENABLE);
		return true;
	}
	if (!KRSI_CHECK_SYSCALL("open " JIT_ENABLE, fd))
		return false;
	n = read(fd, jit_old, sizeof(jit_old) - 1);
	if (!KRSI_CHECK_SYSCALL("read " JIT_ENABLE, n)) {
		close(fd);
		return false;
	}
	jit_old[n] = 0;
	n = pwrite(fd, "0\n", 2, 0);
	err = n < 0 ? errno : 0;
	close(fd);
	if (err == EINVAL) {
		jit_old[0] = 0;
		krsi_skip("bpf_jit_enable cannot be set to 0 (EINVAL): CONFIG_BPF_JIT_ALWAYS_ON");
		return false;
	}
	if (!KRSI_CHECK_ERRNO("write 0 to " JIT_ENABLE, 0, err)) {
		jit_old[0] = 0;
		return false;
	}
	return true;
}

static void jit_restore(void)
{
	ssize_t n = -1;
	int fd;

	if (!jit_old[0])
		return;
	fd = open(JIT_ENABLE, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = write(fd, jit_old, strlen(jit_old));
		close(fd);
	}
	if (n != (ssize_t)strlen(jit_old))
		krsi_fail(__FILE__, __LINE__, "cannot restore %s to %.*s: %s", JIT_ENABLE,
			  (int)strcspn(jit_old, "\n"), jit_old, strerror(errno));
}

/* Load program @i on task_prctl (BTF id @id): its fd, or -1 after a
 * failed check.
 */
static int load_prog(int id, int i)
{
	const struct bpf_insn deny[] = DENY_INSNS(getpid());
	const struct bpf_insn allow[] = ALLOW_INSNS;
	int fd;

	if (i)
		fd = krsi_load_lsm_insns(id, "size_allow", allow, sizeof(allow) / sizeof(allow[0]),
					 log_buf, sizeof(log_buf));
	else
		fd = krsi_load_lsm_insns(id, "size_deny", deny, sizeof(deny) / sizeof(deny[0]),
					 log_buf, sizeof(log_buf));
	if (fd < 0) {
		krsi_fail(__FILE__, __LINE__, "load of program %d (expected success, got %d: %s); log:\n%s",
			  i, fd, strerror(-fd), log_buf);
		return -1;
	}
	return fd;
}

/* True if the program of @fd runs in the interpreter. */
static bool interpreted(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!KRSI_CHECK_OK("bpf_obj_get_info_by_fd",
			   bpf_obj_get_info_by_fd(fd, &info, &len)))
		return false;
	if (info.jited_prog_len) {
		krsi_fail(__FILE__, __LINE__,
			  "program 0 was JITed (%u bytes) with bpf_jit_enable 0: its image tests nothing",
			  info.jited_prog_len);
		return false;
	}
	return true;
}

static void run(void)
{
	int progs[NR_PROGS], links[NR_PROGS];
	int i, id, ret, err;

	for (i = 0; i < NR_PROGS; i++) {
		progs[i] = -1;
		links[i] = -1;
	}
	id = libbpf_find_vmlinux_btf_id("task_prctl", BPF_LSM_MAC);
	if (id <= 0) {
		krsi_fail(__FILE__, __LINE__, "no BTF id for bpf_lsm_task_prctl (%d)", id);
		return;
	}
	if (!jit_off())
		return;
	for (i = 0; i < NR_PROGS; i++) {
		progs[i] = load_prog(id, i);
		if (progs[i] < 0)
			break;
	}
	/* Loaded programs stay interpreted: the JIT is back for the rest. */
	jit_restore();
	if (i < NR_PROGS || !interpreted(progs[0]))
		goto out;

	for (i = 0; i < NR_PROGS; i++) {
		LIBBPF_OPTS(bpf_link_create_opts, opts, .tracing.cookie = COOKIE(i));

		links[i] = bpf_link_create(progs[i], 0, BPF_LSM_MAC, &opts);
		if (links[i] < 0) {
			krsi_fail(__FILE__, __LINE__,
				  "attach of program %d of %d, cookie %#llx (expected success, got %d: %s)",
				  i + 1, NR_PROGS, COOKIE(i), links[i], strerror(-links[i]));
			goto out;
		}
	}
	krsi_note("%d interpreted programs with 64-bit cookies attached to task_prctl",
		  NR_PROGS);

	ret = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	err = ret < 0 ? errno : 0;
	KRSI_CHECK_ERRNO("prctl(PR_GET_DUMPABLE) under all 38 programs, the first denying",
			 EPERM, err);

	close(links[0]);
	links[0] = -1;
	ret = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	if (KRSI_CHECK_SYSCALL("prctl(PR_GET_DUMPABLE) with the denying program detached", ret) &&
	    ret != 0 && ret != 1)
		krsi_fail(__FILE__, __LINE__,
			  "prctl(PR_GET_DUMPABLE) with the denying program detached (expected 0 or 1, got %d)",
			  ret);
out:
	for (i = 0; i < NR_PROGS; i++) {
		if (links[i] >= 0)
			close(links[i]);
		if (progs[i] >= 0)
			close(progs[i]);
	}
}

int main(void)
{
	struct krsi_mark mark0;

	krsi_init();
	mark0 = krsi_mark_objects();
	run();
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_image_size");
}
