#!/bin/bash
# Write a kconfig fragment with the security and hook-cost options of
# Debian's generic amd64 config of a base (6.1 or 6.12), read from the
# installed linux-config-<base> package, each line as Debian has it ("# CONFIG_X is not
# set" included). Only the options matched by the groups below are copied,
# never Debian's whole config; merged last over the pipeline's config, it
# gives a distro-like kernel. Its CONFIG_LSM overrides the one of
# kernel-config.fragment, which configure-kernel.sh then reports: give that
# script kernel-config.fragment without its CONFIG_LSM line.
# usage: distro-config.sh <base> <output fragment>
set -euo pipefail

if [[ $# -ne 2 || -z $2 || ! $1 =~ ^(6\.1|6\.12)$ ]]; then
	echo "usage: distro-config.sh <6.1|6.12> <output fragment>" >&2
	exit 2
fi
base_version=$1
out=$2
pkg=linux-config-$base_version
src=/usr/src/$pkg/config.amd64_none_amd64.xz
if [[ ! -d $(dirname -- "$out") ]]; then
	echo "distro-config: directory of $out does not exist; create it first" >&2
	exit 1
fi
version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
if [[ -z $version || ! -r $src ]]; then
	echo "distro-config: $src not found; install it with: apt-get install $pkg" >&2
	exit 1
fi
base=$(dpkg-query -W -f='${Version}' "linux-source-$base_version" 2>/dev/null || true)
if [[ -n $base && $base != "$version" ]]; then
	echo "distro-config: $pkg is $version but linux-source-$base_version is $base; install $pkg=$base for a config of the same kernel" >&2
fi

# Groups of option names (extended regexes, matched against the whole name
# without CONFIG_). An option goes to the first group that matches it.
groups=(
	# The LSM list Debian boots with and its default security module.
	"LSM order and default"	"LSM|DEFAULT_SECURITY_.*"
	# Lockdown (CONFIG_SECURITY_LOCKDOWN_LSM*, CONFIG_LOCK_DOWN_*).
	"Lockdown"	"SECURITY_LOCKDOWN_LSM.*|LOCK_DOWN_.*"
	# Integrity, IMA, EVM.
	"Integrity, IMA, EVM"	"INTEGRITY.*|IMA.*|EVM.*"
	# Every CONFIG_SECURITY* option: the framework, its network/path hooks,
	# and the LSMs themselves with their options (SELinux, AppArmor, TOMOYO,
	# Smack, Yama, Landlock, SafeSetID, LoadPin), built or not.
	"LSMs and the LSM framework"	"SECURITY.*|LSM_MMAP_MIN_ADDR"
	# Audit: SELinux and AppArmor need it, auditsyscall adds syscall work.
	"Audit"	"AUDIT.*"
	# Speculation mitigations: retpolines and return thunks make every
	# indirect call and return of a hook dearer; PTI every syscall.
	"Mitigations"	"CPU_MITIGATIONS|SPECULATION_MITIGATIONS|PAGE_TABLE_ISOLATION|RETPOLINE|RETHUNK|CPU_IBPB_ENTRY|CPU_IBRS_ENTRY|CPU_UNRET_ENTRY|CPU_SRSO|SLS|CALL_DEPTH_TRACKING|CALL_THUNKS.*|GDS_FORCE_MITIGATION|MITIGATION_.*"
	# Control-flow integrity: IBT puts an ENDBR at every indirect target,
	# kCFI a hash check before every indirect call.
	"Control-flow integrity"	"X86_KERNEL_IBT|CFI.*|KCFI.*"
	# Preemption model (not the preemption tracers).
	"Preemption model"	"PREEMPT|PREEMPT_NONE|PREEMPT_VOLUNTARY|PREEMPT_BUILD|PREEMPT_COUNT|PREEMPTION|PREEMPT_DYNAMIC|PREEMPT_RCU|HAVE_PREEMPT_DYNAMIC.*"
	# Timer tick and the syscall-entry work of nohz_full.
	"Tick"	"HZ.*|NO_HZ.*|CONTEXT_TRACKING.*|VIRT_CPU_ACCOUNTING.*"
	# Static calls and static keys: how hook lists and BPF trampolines are
	# called and skipped.
	"Static calls and jump labels"	"(HAVE_)?STATIC_CALL.*|JUMP_LABEL"
	# Hardening that changes the cost of a hook call or of the allocation
	# of its security blobs.
	"Hardening"	"INIT_ON_ALLOC_DEFAULT_ON|INIT_ON_FREE_DEFAULT_ON|INIT_STACK_.*|HARDENED_USERCOPY.*|RANDOMIZE_KSTACK_OFFSET.*|STACKPROTECTOR.*|FORTIFY_SOURCE|ZERO_CALL_USED_REGS|SCHED_STACK_END_CHECK|SLAB_FREELIST_HARDENED|DEBUG_LIST|BUG_ON_DATA_CORRUPTION"
	# The allocator and memory cgroups: what allocating and freeing the
	# objects behind a hook costs (randomized slab freelists, page
	# shuffling, kmem accounting of sockets, inodes and files).
	"Allocator and memory cgroups"	"SLAB_FREELIST_RANDOM|SHUFFLE_PAGE_ALLOCATOR|MEMCG.*"
	# BPF: the BPF LSM, the JIT, unprivileged BPF.
	"BPF"	"BPF_LSM|BPF_JIT.*|BPF_UNPRIV_DEFAULT_OFF"
)

# Debian's options left out, each with why: they cannot hold in this build
# or would break the pipeline's tests, and change no hook's cost.
skip=(
	# Keyrings for IMA appraisal keys: need SYSTEM_BLACKLIST_KEYRING,
	# SECONDARY_TRUSTED_KEYRING and LOAD_UEFI_KEYS, the key and signing
	# setup of certs/ that this build does not copy.
	INTEGRITY_PLATFORM_KEYRING
	INTEGRITY_MACHINE_KEYRING
	# Debian does not set them; tools/testing/selftests/bpf/config sets
	# them because test_ima writes the IMA policy more than once.
	IMA_WRITE_POLICY
	IMA_READ_POLICY
	# Depends on KVM (a module in Debian, not built here): it only adds an
	# IBPB on the way back to a VMM after a VM exit.
	MITIGATION_VMSCAPE
)

config=$(xz -dc "$src")
seen=" ${skip[*]} "
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
	echo "# Security and hook-cost options of Debian's amd64 config, from"
	echo "# $pkg $version (${src##*/}), written by"
	echo "# scripts/distro-config.sh; lines as Debian has them."
	for ((i = 0; i < ${#groups[@]}; i += 2)); do
		re="^(# )?CONFIG_(${groups[i + 1]})(=.*| is not set)$"
		lines=()
		while IFS= read -r line; do
			name=${line#\# }
			name=${name#CONFIG_}
			name=${name%%[= ]*}
			[[ $seen == *" $name "* ]] && continue
			seen+="$name "
			lines+=("$line")
		done < <(grep -E "$re" <<<"$config" || true)
		[[ ${#lines[@]} -gt 0 ]] || continue
		echo
		echo "# ${groups[i]}"
		printf '%s\n' "${lines[@]}"
	done
} >"$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "distro-config: $out ($(grep -cE '^(CONFIG_|# CONFIG_.* is not set$)' "$out") options from $pkg $version)"
