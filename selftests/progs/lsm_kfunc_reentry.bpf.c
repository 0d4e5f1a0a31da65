// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_kfunc_reentry: sleepable LSM programs calling the kfuncs that run
 * the program's own hook again: bpf_lookup_user_key() reaches cred_prepare
 * (installing a thread keyring calls prepare_creds()), and
 * bpf_verify_pkcs7_signature() reaches kernel_module_request (a crypto
 * algorithm not yet registered is asked of request_module()). Each is
 * loaded on its own by the test; none is attached.
 */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define KEY_SPEC_THREAD_KEYRING	-1	/* uapi/linux/keyctl.h */
#define KEY_LOOKUP_CREATE	0x01	/* linux/key.h */

extern struct bpf_key *bpf_lookup_user_key(__u32 serial, __u64 flags) __ksym;
extern struct bpf_key *bpf_lookup_system_key(__u64 id) __ksym;
extern void bpf_key_put(struct bpf_key *key) __ksym;
extern int bpf_verify_pkcs7_signature(struct bpf_dynptr *data_ptr,
				      struct bpf_dynptr *sig_ptr,
				      struct bpf_key *trusted_keyring) __ksym;

char sig[64] = {};
char data[64] = {};

static __always_inline void lookup(void)
{
	struct bpf_key *key;

	key = bpf_lookup_user_key((__u32)KEY_SPEC_THREAD_KEYRING, KEY_LOOKUP_CREATE);
	if (key)
		bpf_key_put(key);
}

static __always_inline void verify(void)
{
	struct bpf_dynptr d, s;
	struct bpf_key *key;

	key = bpf_lookup_system_key(0);
	if (!key)
		return;
	bpf_dynptr_from_mem(data, sizeof(data), 0, &d);
	bpf_dynptr_from_mem(sig, sizeof(sig), 0, &s);
	bpf_verify_pkcs7_signature(&d, &s, key);
	bpf_key_put(key);
}

SEC("?lsm.s/cred_prepare")
int BPF_PROG(lookup_on_cred_prepare, struct cred *new, const struct cred *old, gfp_t gfp)
{
	lookup();
	return 0;
}

SEC("?lsm.s/kernel_module_request")
int BPF_PROG(lookup_on_module_request, char *kmod_name)
{
	lookup();
	return 0;
}

SEC("?lsm.s/cred_prepare")
int BPF_PROG(verify_on_cred_prepare, struct cred *new, const struct cred *old, gfp_t gfp)
{
	verify();
	return 0;
}

SEC("?lsm.s/kernel_module_request")
int BPF_PROG(verify_on_module_request, char *kmod_name)
{
	verify();
	return 0;
}

/* The same kfuncs on a hook they do not reach still load. */
SEC("?lsm.s/bprm_committed_creds")
int BPF_PROG(lookup_elsewhere, struct linux_binprm *bprm)
{
	lookup();
	return 0;
}

SEC("?lsm.s/bprm_committed_creds")
int BPF_PROG(verify_elsewhere, struct linux_binprm *bprm)
{
	verify();
	return 0;
}

char _license[] SEC("license") = "GPL";
