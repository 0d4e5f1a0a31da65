// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_mac_admin: every way of setting or removing MAC policy with BPF takes
 * CAP_MAC_ADMIN. The test (root, every capability) loads the programs and
 * creates the objects; for each path a forked child drops only
 * CAP_MAC_ADMIN from its effective set (it keeps CAP_BPF, CAP_PERFMON,
 * CAP_NET_ADMIN and CAP_SYS_ADMIN) and tries the operation on the fds it
 * inherited: EPERM, and the policy in force is unchanged. The parent then
 * does the same and it works, with its effect on mprotect() checked. Every
 * program acts only on the test's own tgid.
 *
 *   link_create_lsm          BPF_LINK_CREATE of lsm/file_mprotect
 *   raw_tp_open_lsm          BPF_RAW_TRACEPOINT_OPEN of the same
 *   prog_attach_lsm_cgroup   BPF_PROG_ATTACH, BPF_LSM_CGROUP, cgroup v2 root
 *   link_update_lsm_cgroup   BPF_LINK_UPDATE of an lsm_cgroup link
 *   link_detach_lsm_cgroup   BPF_LINK_DETACH of an lsm_cgroup link
 *   prog_detach_lsm_cgroup   BPF_PROG_DETACH, BPF_LSM_CGROUP
 *   fmod_ret_security        fmod_ret/security_file_mprotect attach (on
 *                            arm64 before 6.4: EPERM, then ENOTSUPP for root)
 *   tail_call_map_update     update and delete of the prog array an LSM
 *                            program tail-calls into
 *   freplace_lsm             an extension of an LSM program's function:
 *                            EINVAL for everyone
 *   freplace_fmod_ret_security  the same for fmod_ret/security_*
 *   live_hooks_mode          securityfs bpf/live_hooks is 0400: uid 65534
 *                            without CAP_DAC_* cannot open it
 */

#define _GNU_SOURCE	/* setresuid */
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_mac_admin.skel.h"
#include "lsm_mac_admin_ext.skel.h"

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define NOBODY_UID	65534
#define LOG_SIZE	(1 << 16)

/* Exit codes of a child that are not an operation's errno. */
#define CHILD_FAILED	254	/* a check of the child failed (printed) */
#define CHILD_BROKEN	255	/* could not set up its credentials */

enum child_creds {
	NO_MAC_ADMIN,	/* all capabilities but CAP_MAC_ADMIN */
	NOBODY,		/* uid 65534, no CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH */
};

/* What loading and the cgroup and map operations take: the children keep it. */
static const int kept_caps[] = { CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN };

static struct lsm_mac_admin *skel;
static int cgroup_fd = -1;
static int link_fd = -1;	/* the lsm_cgroup link a child works on */
static char log_buf[LOG_SIZE];
static char msg_buf[256];
static long page_size;
static void *page;

#define FD(prog)	bpf_program__fd(skel->progs.prog)
/* A check's description, formatted. */
#define MSG(...)	(snprintf(msg_buf, sizeof(msg_buf), __VA_ARGS__), msg_buf)

/* An fd or 0 from libbpf, or -errno: the errno, 0 for success. */
static int err_of(int ret)
{
	return ret < 0 ? -ret : 0;
}

static int mprotect_errno(void)
{
	int ret = mprotect(page, page_size, PROT_READ);

	if (ret > 0)	/* a positive verdict leaking out of the hook */
		return -ret;
	return ret ? errno : 0;
}

#define CHECK_MPROTECT(what, expected) \
	KRSI_CHECK_ERRNO("mprotect " what, expected, mprotect_errno())

static bool caps_get(struct __user_cap_data_struct *data)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	return KRSI_CHECK_SYSCALL("capget", syscall(SYS_capget, &hdr, data));
}

/* Clears @caps from the effective set. */
static bool caps_drop(const int *caps, int n)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i;

	if (!caps_get(data))
		return false;
	for (i = 0; i < n; i++)
		data[CAP_TO_INDEX(caps[i])].effective &= ~CAP_TO_MASK(caps[i]);
	return KRSI_CHECK_SYSCALL("capset", syscall(SYS_capset, &hdr, data));
}

/* 1 if @cap is effective, 0 if not, -1 if capget failed. */
static int cap_effective(int cap)
{
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (!caps_get(data))
		return -1;
	return !!(data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap));
}

static bool child_set_creds(enum child_creds creds)
{
	static const int dac[] = { CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH };
	static const int mac[] = { CAP_MAC_ADMIN };
	unsigned int i;

	if (creds == NO_MAC_ADMIN) {
		if (!caps_drop(mac, 1))
			return false;
		KRSI_CHECK_EQ("child: CAP_MAC_ADMIN effective", 0,
			      cap_effective(CAP_MAC_ADMIN));
		for (i = 0; i < sizeof(kept_caps) / sizeof(kept_caps[0]); i++)
			KRSI_CHECK_EQ(MSG("child: capability %d effective", kept_caps[i]),
				      1, cap_effective(kept_caps[i]));
		return !krsi_failed;
	}
	if (!caps_drop(dac, 2) ||
	    !KRSI_CHECK_SYSCALL("setresuid", setresuid(NOBODY_UID, NOBODY_UID, NOBODY_UID)))
		return false;
	KRSI_CHECK_EQ("child: euid", NOBODY_UID, geteuid());
	for (i = 0; i < 2; i++)
		KRSI_CHECK_EQ(MSG("child: capability %d effective", dac[i]), 0,
			      cap_effective(dac[i]));
	return !krsi_failed;
}

/* Runs @op in a child with @creds: its errno (0 on success), or -1 if the
 * child failed otherwise (the reason is printed).
 */
static int in_child(enum child_creds creds, int (*op)(void))
{
	int status, ret;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!KRSI_CHECK_SYSCALL("fork", pid))
		return -1;
	if (!pid) {
		krsi_failed = 0;	/* the parent's verdict is not the child's */
		if (!child_set_creds(creds))
			_exit(CHILD_BROKEN);
		ret = err_of(op());
		if (krsi_failed)
			_exit(CHILD_FAILED);
		_exit(ret < CHILD_FAILED ? ret : CHILD_FAILED - 1);
	}
	if (!KRSI_CHECK_SYSCALL("waitpid", waitpid(pid, &status, 0)))
		return -1;
	if (!WIFEXITED(status)) {
		krsi_fail(__FILE__, __LINE__, "child: status 0x%x", status);
		return -1;
	}
	switch (WEXITSTATUS(status)) {
	case CHILD_BROKEN:
		krsi_fail(__FILE__, __LINE__, "child: could not set up its credentials");
		return -1;
	case CHILD_FAILED:
		krsi_fail(__FILE__, __LINE__, "child: a check failed");
		return -1;
	}
	return WEXITSTATUS(status);
}

/* The child's attempt: EPERM. */
#define CHECK_CHILD(op_name, op) \
	KRSI_CHECK_ERRNO("child without CAP_MAC_ADMIN: " op_name, EPERM, \
			 in_child(NO_MAC_ADMIN, op))

/* An attach that returns an fd: the child cannot, the parent can, and its
 * program denies mprotect until the fd is closed.
 */
static void attach_gated(const char *op_name, int (*attach)(void))
{
	int fd;

	KRSI_CHECK_ERRNO(MSG("child without CAP_MAC_ADMIN: %s", op_name), EPERM,
			 in_child(NO_MAC_ADMIN, attach));
	/* A child's link, had it got one, went away with the child. */
	CHECK_MPROTECT("after the child's attempt", 0);
	fd = attach();
	if (!KRSI_CHECK_ERRNO(MSG("parent: %s", op_name), 0, err_of(fd)))
		return;
	CHECK_MPROTECT("while the parent's program is attached", EPERM);
	close(fd);
	CHECK_MPROTECT("after the parent closed its link", 0);
}

static int op_link_create_lsm(void)
{
	return bpf_link_create(FD(deny_mprotect), 0, BPF_LSM_MAC, NULL);
}

static void link_create_lsm(void)
{
	attach_gated("BPF_LINK_CREATE of lsm/file_mprotect", op_link_create_lsm);
}

static int op_raw_tp_open_lsm(void)
{
	return bpf_raw_tracepoint_open(NULL, FD(deny_mprotect));
}

static void raw_tp_open_lsm(void)
{
	attach_gated("BPF_RAW_TRACEPOINT_OPEN of lsm/file_mprotect",
		     op_raw_tp_open_lsm);
}

static int op_prog_attach_cg(void)
{
	return bpf_prog_attach(FD(deny_cg), cgroup_fd, BPF_LSM_CGROUP, 0);
}

static int op_prog_detach_cg(void)
{
	return bpf_prog_detach2(FD(deny_cg), cgroup_fd, BPF_LSM_CGROUP);
}

static void prog_attach_lsm_cgroup(void)
{
	int err;

	err = in_child(NO_MAC_ADMIN, op_prog_attach_cg);
	KRSI_CHECK_ERRNO("child without CAP_MAC_ADMIN: BPF_PROG_ATTACH of lsm_cgroup/file_mprotect",
			 EPERM, err);
	CHECK_MPROTECT("after the child's attempt", 0);
	if (!err) {	/* the child's policy outlives it */
		krsi_note("removing the child's lsm_cgroup program");
		KRSI_CHECK_ERRNO("parent: BPF_PROG_DETACH of the child's program", 0,
				 err_of(op_prog_detach_cg()));
	}
	if (!KRSI_CHECK_ERRNO("parent: BPF_PROG_ATTACH of lsm_cgroup/file_mprotect", 0,
			      err_of(op_prog_attach_cg())))
		return;
	CHECK_MPROTECT("under the parent's lsm_cgroup program", EPERM);
	KRSI_CHECK_ERRNO("parent: BPF_PROG_DETACH", 0, err_of(op_prog_detach_cg()));
	CHECK_MPROTECT("after the parent's detach", 0);
}

/* An lsm_cgroup link of deny_cg in link_fd, in force. */
static bool cg_link_create(void)
{
	link_fd = bpf_link_create(FD(deny_cg), cgroup_fd, BPF_LSM_CGROUP, NULL);
	if (!KRSI_CHECK_ERRNO("parent: BPF_LINK_CREATE of lsm_cgroup/file_mprotect", 0,
			      err_of(link_fd))) {
		link_fd = -1;
		return false;
	}
	return CHECK_MPROTECT("under the lsm_cgroup link", EPERM);
}

static void cg_link_close(void)
{
	if (link_fd >= 0)
		close(link_fd);
	link_fd = -1;
	CHECK_MPROTECT("after the link's close", 0);
}

static int op_link_update_cg(void)
{
	return bpf_link_update(link_fd, FD(allow_cg), NULL);
}

static void link_update_lsm_cgroup(void)
{
	if (!cg_link_create())
		goto out;
	CHECK_CHILD("BPF_LINK_UPDATE of the lsm_cgroup link to allow-all",
		    op_link_update_cg);
	if (!CHECK_MPROTECT("after the child's update", EPERM)) {
		krsi_note("the child replaced the policy: deny_cg back in the link");
		KRSI_CHECK_ERRNO("parent: BPF_LINK_UPDATE back to deny_cg", 0,
				 err_of(bpf_link_update(link_fd, FD(deny_cg), NULL)));
	}
	KRSI_CHECK_ERRNO("parent: BPF_LINK_UPDATE to allow-all", 0,
			 err_of(op_link_update_cg()));
	CHECK_MPROTECT("after the parent's update", 0);
out:
	cg_link_close();
}

static int op_link_detach(void)
{
	return bpf_link_detach(link_fd);
}

static void link_detach_lsm_cgroup(void)
{
	if (!cg_link_create())
		goto out;
	CHECK_CHILD("BPF_LINK_DETACH of the lsm_cgroup link", op_link_detach);
	if (!CHECK_MPROTECT("after the child's detach", EPERM)) {
		krsi_note("the child lifted the policy: a new link for the parent");
		cg_link_close();
		if (!cg_link_create())
			goto out;
	}
	KRSI_CHECK_ERRNO("parent: BPF_LINK_DETACH", 0, err_of(op_link_detach()));
	CHECK_MPROTECT("after the parent's detach", 0);
out:
	cg_link_close();
}

static void prog_detach_lsm_cgroup(void)
{
	if (!KRSI_CHECK_ERRNO("parent: BPF_PROG_ATTACH of lsm_cgroup/file_mprotect", 0,
			      err_of(op_prog_attach_cg())))
		return;
	if (!CHECK_MPROTECT("under the lsm_cgroup program", EPERM))
		goto out;
	CHECK_CHILD("BPF_PROG_DETACH of the lsm_cgroup program", op_prog_detach_cg);
	if (!CHECK_MPROTECT("after the child's detach", EPERM)) {
		krsi_note("the child lifted the policy: attaching it again for the parent");
		if (!KRSI_CHECK_ERRNO("parent: BPF_PROG_ATTACH again", 0,
				      err_of(op_prog_attach_cg())))
			return;
	}
out:
	KRSI_CHECK_ERRNO("parent: BPF_PROG_DETACH", 0, err_of(op_prog_detach_cg()));
	CHECK_MPROTECT("after the parent's detach", 0);
}

static int op_fmod_ret(void)
{
	return bpf_link_create(FD(fmod_deny), 0, BPF_MODIFY_RETURN, NULL);
}

static void fmod_ret_security(void)
{
	const char *op = "BPF_LINK_CREATE of fmod_ret/security_file_mprotect";
	int fd;

	/* Without direct calls the gate still comes first, and the
	 * permitted attach fails.
	 */
	if (!krsi_function_trampolines()) {
		KRSI_CHECK_ERRNO(MSG("child without CAP_MAC_ADMIN: %s", op), EPERM,
				 in_child(NO_MAC_ADMIN, op_fmod_ret));
		fd = op_fmod_ret();
		KRSI_CHECK_ERRNO(MSG("parent: %s (arm64 before 6.4)", op), KRSI_ENOTSUPP,
				 err_of(fd));
		if (fd >= 0)
			close(fd);
		return;
	}
	attach_gated(op, op_fmod_ret);
}

static int jmp_table_fd(void)
{
	return bpf_map__fd(skel->maps.jmp_table);
}

static int op_tail_update(void)
{
	int fd = FD(tail_allow);
	__u32 key = 0;

	return bpf_map_update_elem(jmp_table_fd(), &key, &fd, BPF_ANY);
}

static int op_tail_delete(void)
{
	__u32 key = 0;

	return bpf_map_delete_elem(jmp_table_fd(), &key);
}

static int tail_set_deny(void)
{
	int fd = FD(tail_deny);
	__u32 key = 0;

	return bpf_map_update_elem(jmp_table_fd(), &key, &fd, BPF_ANY);
}

/* Id of the program in jmp_table[0], 0 if empty, or -errno. */
static long long tail_slot_id(void)
{
	__u32 key = 0, id;
	int err;

	err = bpf_map_lookup_elem(jmp_table_fd(), &key, &id);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	return id;
}

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!KRSI_CHECK_OK("bpf_obj_get_info_by_fd",
			   bpf_obj_get_info_by_fd(fd, &info, &len)))
		return 0;
	return info.id;
}

static void tail_call_map_update(void)
{
	__u32 deny_id = prog_id(FD(tail_deny));
	int fd;

	if (!deny_id ||
	    !KRSI_CHECK_ERRNO("parent: jmp_table[0] = tail_deny", 0, err_of(tail_set_deny())))
		return;
	fd = bpf_link_create(FD(tail_main), 0, BPF_LSM_MAC, NULL);
	if (!KRSI_CHECK_ERRNO("parent: BPF_LINK_CREATE of tail_main", 0, err_of(fd)))
		return;
	if (!CHECK_MPROTECT("under tail_main -> tail_deny", EPERM))
		goto out;

	CHECK_CHILD("update of jmp_table[0] to allow-all", op_tail_update);
	if (!KRSI_CHECK_EQ("program in jmp_table[0] after the child's update (tail_deny's id)",
			   deny_id, tail_slot_id()) ||
	    !CHECK_MPROTECT("after the child's update", EPERM)) {
		krsi_note("the child changed the table: tail_deny back in jmp_table[0]");
		KRSI_CHECK_ERRNO("parent: jmp_table[0] = tail_deny again", 0,
				 err_of(tail_set_deny()));
	}
	CHECK_CHILD("delete of jmp_table[0]", op_tail_delete);
	if (!KRSI_CHECK_EQ("program in jmp_table[0] after the child's delete (tail_deny's id)",
			   deny_id, tail_slot_id())) {
		krsi_note("the child changed the table: tail_deny back in jmp_table[0]");
		KRSI_CHECK_ERRNO("parent: jmp_table[0] = tail_deny again", 0,
				 err_of(tail_set_deny()));
	}
	CHECK_MPROTECT("after the child's delete", EPERM);

	KRSI_CHECK_ERRNO("parent: jmp_table[0] = tail_allow", 0, err_of(op_tail_update()));
	CHECK_MPROTECT("with tail_allow in jmp_table[0]", 0);
	KRSI_CHECK_ERRNO("parent: delete of jmp_table[0]", 0, err_of(op_tail_delete()));
	KRSI_CHECK_EQ("program in jmp_table[0] after the parent's delete", 0, tail_slot_id());
	CHECK_MPROTECT("with jmp_table[0] empty", EPERM);
out:
	close(fd);
	CHECK_MPROTECT("after tail_main's link closed", 0);
}

/* Load, and if that works attach, an extension of deny_mprotect's
 * mac_admin_decide(): -errno of the step that failed, 0 if both worked.
 */
/* Load, and if that works attach, an extension of @func in the program of
 * @tgt_fd: 0 if both worked, else the errno of the step that failed.
 */
static int freplace_of(bool fmod, int tgt_fd, const char *func)
{
	struct lsm_mac_admin_ext *ext;
	struct bpf_program *prog;
	struct bpf_link *link;
	char *line, *next;
	int err;

	ext = lsm_mac_admin_ext__open();
	if (!KRSI_CHECK_PTR("lsm_mac_admin_ext__open", ext))
		return -errno;
	prog = fmod ? ext->progs.mac_admin_fmod_decide_ext : ext->progs.mac_admin_decide_ext;
	bpf_program__set_autoload(prog, true);
	err = bpf_program__set_attach_target(prog, tgt_fd, func);
	if (!KRSI_CHECK_OK("bpf_program__set_attach_target", err))
		goto out;
	log_buf[0] = 0;
	bpf_program__set_log_buf(prog, log_buf, sizeof(log_buf));
	err = lsm_mac_admin_ext__load(ext);
	if (err) {
		if (!log_buf[0])
			krsi_note("load: %s, no verifier log", strerror(-err));
		else if (strstr(log_buf, "Cannot replace LSM programs"))
			krsi_note("load: %s, verifier log: Cannot replace LSM programs",
				  strerror(-err));
		else {
			krsi_fail(__FILE__, __LINE__,
				  "load: %s, verifier log lacks \"Cannot replace LSM programs\":",
				  strerror(-err));
			for (line = log_buf; *line; line = next) {
				next = strchr(line, '\n');
				if (next)
					*next++ = 0;
				else
					next = line + strlen(line);
				krsi_note("  %s", line);
			}
		}
		goto out;
	}
	krsi_note("freplace/%s loaded; attaching it", func);
	link = bpf_program__attach_freplace(prog, tgt_fd, func);
	err = link ? 0 : -errno;
	if (link)
		krsi_note("freplace attached; mprotect now: %s",
			  strerror(mprotect_errno()));
	bpf_link__destroy(link);
out:
	lsm_mac_admin_ext__destroy(ext);
	return err;
}

static int op_freplace(void)
{
	return freplace_of(false, FD(deny_mprotect), "mac_admin_decide");
}

static int op_freplace_fmod(void)
{
	return freplace_of(true, FD(fmod_deny), "mac_admin_fmod_decide");
}

static void freplace_lsm(void)
{
	KRSI_CHECK_ERRNO("child without CAP_MAC_ADMIN: freplace of an LSM program's function",
			 EINVAL, in_child(NO_MAC_ADMIN, op_freplace));
	KRSI_CHECK_ERRNO("parent: freplace of an LSM program's function", EINVAL,
			 err_of(op_freplace()));
}

/* An fmod_ret program on security_*() is policy too (patch 10 gates its
 * attach): its code may not be replaced either.
 */
static void freplace_fmod_ret_security(void)
{
	KRSI_CHECK_ERRNO("child without CAP_MAC_ADMIN: freplace of an fmod_ret/security_* program's function",
			 EINVAL, in_child(NO_MAC_ADMIN, op_freplace_fmod));
	KRSI_CHECK_ERRNO("parent: freplace of an fmod_ret/security_* program's function", EINVAL,
			 err_of(op_freplace_fmod()));
}

static int op_open_live_hooks(void)
{
	int fd = open(KRSI_LIVE_HOOKS, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void live_hooks_mode(void)
{
	struct stat st;

	if (!KRSI_CHECK_SYSCALL("stat " KRSI_LIVE_HOOKS, stat(KRSI_LIVE_HOOKS, &st)))
		return;
	if ((st.st_mode & 07777) != 0400)
		krsi_fail(__FILE__, __LINE__, "mode of %s (expected 0400, got %04o)",
			  KRSI_LIVE_HOOKS, st.st_mode & 07777);
	KRSI_CHECK_ERRNO("uid 65534 without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH: open live_hooks",
			 EACCES, in_child(NOBODY, op_open_live_hooks));
	KRSI_CHECK_ERRNO("root: open live_hooks", 0, err_of(op_open_live_hooks()));
}

int main(void)
{
	int err, failed = 0;
	struct krsi_mark mark0;

	krsi_init();
	alarm(600);	/* a hang is a failure */
	page_size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_PTR("mmap", page == MAP_FAILED ? NULL : page) ||
	    !KRSI_CHECK_EQ("CAP_MAC_ADMIN effective in the parent", 1,
			   cap_effective(CAP_MAC_ADMIN)))
		return krsi_exit("lsm_mac_admin");
	mark0 = krsi_mark_objects();

	skel = lsm_mac_admin__open();
	if (!KRSI_CHECK_PTR("lsm_mac_admin__open", skel))
		return krsi_exit("lsm_mac_admin");
	skel->rodata->target_tgid = getpid();
	err = lsm_mac_admin__load(skel);
	if (!KRSI_CHECK_OK("lsm_mac_admin__load", err))
		goto out;
	cgroup_fd = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	KRSI_CHECK_SYSCALL("open " CGROUP_ROOT, cgroup_fd);
	CHECK_MPROTECT("before any policy", 0);

#define SUBTEST(name) do {						\
		failed |= krsi_failed;					\
		krsi_failed = 0;					\
		name();							\
		krsi_note("subtest %s: %s", #name, krsi_failed ? "FAIL" : "ok"); \
		failed |= krsi_failed;					\
	} while (0)
	SUBTEST(link_create_lsm);
	SUBTEST(raw_tp_open_lsm);
	SUBTEST(prog_attach_lsm_cgroup);
	SUBTEST(link_update_lsm_cgroup);
	SUBTEST(link_detach_lsm_cgroup);
	SUBTEST(prog_detach_lsm_cgroup);
	SUBTEST(fmod_ret_security);
	SUBTEST(tail_call_map_update);
	SUBTEST(freplace_lsm);
	SUBTEST(freplace_fmod_ret_security);
	SUBTEST(live_hooks_mode);
	krsi_failed |= failed;

out:
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	lsm_mac_admin__destroy(skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_mac_admin");
}
