// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_uncalled_nops: an fentry program on the bpf_lsm_<hook>() nop of each
 * hook that security.c does not call BPF for (vm_enough_memory,
 * getprocattr, setprocattr, inode_getsecurity, inode_copy_up_xattr,
 * dentry_init_security, inode_setsecurity, secid_to_secctx,
 * inode_getsecctx, xfrm_state_pol_flow_match) must either be refused at
 * load with EOPNOTSUPP and a verifier line naming the nop, or run: this
 * process then makes a call that reaches the hook and the program must
 * count it. A program that attaches on a hook this test cannot reach
 * fails: nothing shows that it runs. Stock 6.1 ran them all (the nops
 * were registered LSM hooks); without a call site they attach and never
 * run.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_uncalled_nops.skel.h"

#ifndef SO_PASSSEC
#define SO_PASSSEC 34
#endif

static const char *const hooks[10] = {
	"vm_enough_memory", "getprocattr", "setprocattr", "inode_getsecurity",
	"inode_copy_up_xattr", "dentry_init_security", "inode_setsecurity",
	"secid_to_secctx", "inode_getsecctx", "xfrm_state_pol_flow_match",
};

/* Make calls that reach @idx's hook; false if the test has none. */
static bool trigger(int idx)
{
	char buf[256], path[] = "/tmp/lsm_uncalled_nops.XXXXXX";
	struct msghdr msg = {};
	struct iovec iov;
	int one = 1, sv[2], fd, i;
	void *p;

	switch (idx) {
	case 0: /* security_vm_enough_memory_mm(): private writable mappings */
		for (i = 0; i < 10; i++) {
			p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p != MAP_FAILED)
				munmap(p, 4096);
		}
		return true;
	case 1: /* security_getprocattr() */
		fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				krsi_note("read /proc/self/attr/current: %s", strerror(errno));
			close(fd);
		}
		return true;
	case 2: /* security_setprocattr() */
		fd = open("/proc/self/attr/current", O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "x", 1) < 0)
				krsi_note("write /proc/self/attr/current: %s", strerror(errno));
			close(fd);
		}
		return true;
	case 3: /* security_inode_getsecurity(), via xattr_getsecurity() */
		fd = mkstemp(path);
		if (fd < 0)
			return true;
		fgetxattr(fd, "security.krsi", buf, sizeof(buf));
		close(fd);
		unlink(path);
		return true;
	case 7: /* security_secid_to_secctx(), via SCM_SECURITY */
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			return true;
		setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one));
		if (write(sv[0], "x", 1) == 1) {
			iov.iov_base = buf;
			iov.iov_len = 1;
			msg.msg_iov = &iov;
			msg.msg_iovlen = 1;
			msg.msg_control = buf + 64;
			msg.msg_controllen = 128;
			recvmsg(sv[1], &msg, 0);
		}
		close(sv[0]);
		close(sv[1]);
		return true;
	default:
		return false;
	}
}

static void check_nop(struct btf *vmlinux_btf, int idx)
{
	struct lsm_uncalled_nops *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	char log[4096] = "", nop[64], expect[128], what[128];
	int err, i;

	snprintf(nop, sizeof(nop), "bpf_lsm_%s", hooks[idx]);
	if (btf__find_by_name_kind(vmlinux_btf, nop, BTF_KIND_FUNC) < 0) {
		krsi_note("%s: not in this kernel", nop);
		return;
	}
	skel = lsm_uncalled_nops__open();
	if (!KRSI_CHECK_PTR("lsm_uncalled_nops__open", skel))
		return;
	for (i = 0; i < 10; i++) {
		prog = bpf_object__find_program_by_name(skel->obj, hooks[i]);
		bpf_program__set_autoload(prog, i == idx);
		if (i == idx)
			bpf_program__set_log_buf(prog, log, sizeof(log));
	}
	prog = bpf_object__find_program_by_name(skel->obj, hooks[idx]);
	err = lsm_uncalled_nops__load(skel);
	if (err) {
		snprintf(what, sizeof(what), "fentry/%s: load", nop);
		snprintf(expect, sizeof(expect), "%s is never called", nop);
		KRSI_CHECK_ERRNO(what, EOPNOTSUPP, -err);
		if (!strstr(log, expect))
			krsi_fail(__FILE__, __LINE__,
				  "fentry/%s: verifier log lacks \"%s\": %s",
				  nop, expect, log);
		else
			krsi_note("fentry/%s refused: %s", nop, strtok(log, "\n"));
		goto out;
	}
	link = bpf_program__attach(prog);
	snprintf(what, sizeof(what), "fentry/%s: attach", nop);
	if (!KRSI_CHECK_PTR(what, link))
		goto out;
	skel->bss->target_tgid = getpid();
	if (!trigger(idx)) {
		krsi_fail(__FILE__, __LINE__,
			  "fentry/%s loaded and attached, and this test cannot reach its hook: it must be refused",
			  nop);
	} else {
		skel->bss->target_tgid = 0;
		if (skel->bss->calls[idx] == 0)
			krsi_fail(__FILE__, __LINE__,
				  "fentry/%s attached and never ran (0 calls after calls that reach its hook)",
				  nop);
		else
			krsi_note("fentry/%s ran %llu times", nop,
				  (unsigned long long)skel->bss->calls[idx]);
	}
	bpf_link__destroy(link);
out:
	lsm_uncalled_nops__destroy(skel);
}

int main(void)
{
	struct btf *vmlinux_btf;
	struct krsi_mark mark0;
	int i;

	krsi_init();
	mark0 = krsi_mark_objects();
	vmlinux_btf = btf__load_vmlinux_btf();
	if (!KRSI_CHECK_PTR("btf__load_vmlinux_btf", vmlinux_btf))
		return krsi_exit("lsm_uncalled_nops");
	for (i = 0; i < 10; i++)
		check_nop(vmlinux_btf, i);
	btf__free(vmlinux_btf);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_uncalled_nops");
}
