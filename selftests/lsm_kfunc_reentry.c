// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_kfunc_reentry: an LSM program may not call a kfunc that runs the
 * programs of its own hook again. LSM programs run without a recursion
 * counter: an lsm.s/cred_prepare program calling bpf_lookup_user_key() for
 * a thread keyring, or an lsm.s/kernel_module_request program calling
 * bpf_verify_pkcs7_signature() when a crypto algorithm has to be loaded,
 * recursed until the kernel stack overflowed (stock 6.1 and 6.12 too).
 *
 * Each such program, alone, must fail to load with EACCES and the verifier
 * line "<kfunc> runs the programs of bpf_lsm_<hook> again"; the same kfuncs
 * on bprm_committed_creds must load. Nothing is attached or run.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_kfunc_reentry.skel.h"

#define LOG_SIZE	(1 << 16)

static char log_buf[LOG_SIZE];

/* Load lsm_kfunc_reentry with only @prog; 0 or the load's error. */
static int load_only(const char *prog)
{
	struct lsm_kfunc_reentry *skel = lsm_kfunc_reentry__open();
	struct bpf_program *p;
	int err;

	if (!KRSI_CHECK_PTR("lsm_kfunc_reentry__open", skel))
		return -ENOMEM;
	p = bpf_object__find_program_by_name(skel->obj, prog);
	bpf_program__set_autoload(p, true);
	log_buf[0] = 0;
	bpf_program__set_log_buf(p, log_buf, sizeof(log_buf));
	err = lsm_kfunc_reentry__load(skel);
	lsm_kfunc_reentry__destroy(skel);
	return err;
}

static void refused(const char *prog, const char *kfunc, const char *hook)
{
	char line[128];

	snprintf(line, sizeof(line), "%s runs the programs of bpf_lsm_%s again", kfunc, hook);
	if (KRSI_CHECK_EQ(prog, -EACCES, load_only(prog)) && !strstr(log_buf, line))
		krsi_fail(__FILE__, __LINE__, "%s: verifier log lacks \"%s\"; log:\n%s",
			  prog, line, log_buf);
}

static void loads(const char *prog)
{
	int err = load_only(prog);

	if (!KRSI_CHECK_EQ(prog, 0, err))
		krsi_note("log:\n%s", log_buf);
}

int main(void)
{
	struct krsi_mark mark0;

	krsi_init();
	mark0 = krsi_mark_objects();
	refused("lookup_on_cred_prepare", "bpf_lookup_user_key", "cred_prepare");
	refused("lookup_on_module_request", "bpf_lookup_user_key", "kernel_module_request");
	refused("verify_on_cred_prepare", "bpf_verify_pkcs7_signature", "cred_prepare");
	refused("verify_on_module_request", "bpf_verify_pkcs7_signature", "kernel_module_request");
	loads("lookup_elsewhere");
	loads("verify_elsewhere");
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	return krsi_exit("lsm_kfunc_reentry");
}
