# KRSI: BPF programs on LSM hooks, as a patch series for Debian's Linux 6.1
# and 6.12. `make help` lists the targets.

SHELL := /bin/bash
ROOT := $(CURDIR)
B ?= $(ROOT)/build
# BASE: the Debian kernel the series applies to, one series per base:
# 6.1 (series, patches/) or 6.12 (patches/6.12/series, patches/6.12/).
# Each base has its own trees and outputs: $(B) for 6.1, $(B)/6.12 for
# 6.12, and its own config fragment (kernel-config-<base>.fragment), merged
# after kernel-config.fragment: FRAGMENTS.
BASE ?= 6.12
ifeq ($(BASE),6.1)
SERIES := $(ROOT)/series
PATCHDIR := $(ROOT)/patches
COVER := $(ROOT)/Documentation/cover-letter.txt
BB := $(B)
LSM ?= yama,integrity,bpf
else ifeq ($(BASE),6.12)
SERIES := $(ROOT)/patches/6.12/series
PATCHDIR := $(ROOT)/patches/6.12
COVER := $(ROOT)/Documentation/cover-letter-6.12.txt
BB := $(B)/6.12
LSM ?= yama,bpf
else
$(error BASE=$(BASE) is not supported: use BASE=6.1 or BASE=6.12)
endif
FRAGMENTS := $(ROOT)/kernel-config.fragment $(ROOT)/kernel-config-$(BASE).fragment
# The harness's tests of the base's series (apply-commands, docs-generated).
export KRSI_BASE := $(BASE)
export KRSI_TREE := $(BB)/linux
export KRSI_SERIES := $(SERIES)
export KRSI_PATCHDIR := $(PATCHDIR)
# The base's own tests of LSM programs, and the series' (lsm_direct_call,
# lsm_verdict), by test_progs name: scripts/check.sh runs them. arm64 6.1
# has no ftrace direct calls (since 6.4): without the (sub)tests that
# attach fentry/fexit programs to ordinary kernel functions
# (__arm64_sys_setdomainname, exit_creds, security_inode_getattr...), with
# or without the series; lsm_mac_admin checks that such an attach fails
# there with ENOTSUPP, after the CAP_MAC_ADMIN gate.
UPSTREAM_TESTS := test_lsm,lsm_cgroup,test_local_storage,task_local_storage
UPSTREAM_TESTS := $(UPSTREAM_TESTS),test_bprm_opts,d_path,test_ima
ifeq ($(BASE)-$(ARCH),6.1-arm64)
UPSTREAM_TESTS := lsm_cgroup,test_local_storage,task_local_storage/sys_enter_exit
UPSTREAM_TESTS := $(UPSTREAM_TESTS),test_bprm_opts,d_path/check_rdonly_mem
UPSTREAM_TESTS := $(UPSTREAM_TESTS),d_path/check_alloc_mem,test_ima
else ifeq ($(BASE),6.12)
UPSTREAM_TESTS := $(UPSTREAM_TESTS),verifier_lsm,deny_namespace,bpf_cookie/lsm,lsm_safety
endif
export KRSI_UPSTREAM_TESTS := $(UPSTREAM_TESTS),lsm_direct_call,lsm_verdict
TARBALL ?= /usr/src/linux-source-$(BASE).tar.xz
# KSRC: the kernel tree. The default is managed here (base + series); point
# it at your own tree to build and test that instead, as it is: its
# outputs then go under build/trees/<its path>/, never into the managed
# tree's.
KSRC ?= $(BB)/linux
MANAGED := $(filter $(BB)/linux,$(abspath $(KSRC)))
# ARCH=arm64: the same tree cross-built for arm64 (defconfig +
# kernel-config-arm64.fragment), its selftests cross-built, run in
# qemu-system-aarch64 -M virt with an initramfs of Debian's arm64
# busybox-static and bash-static; every output under $(B)/arm64/. The
# scripts read ARCH (and CROSS_COMPILE) from the environment, which make
# exports command-line variables to.
ifeq ($(ARCH),arm64)
ARCH_OUT := $(BB)/arm64
ARCH_FRAGMENTS := $(ROOT)/kernel-config-arm64.fragment $(ROOT)/kernel-config-arm64-$(BASE).fragment
IMAGE_PATH := arch/arm64/boot/Image
ARM64_GOALS := all demo check check-cycles vm kernel tree deps selftests bpf-selftests initramfs stock-kernel bench breakdown clean help
ifneq ($(filter-out $(ARM64_GOALS),$(MAKECMDGOALS)),)
$(error ARCH=arm64 supports only $(ARM64_GOALS); run the others without ARCH)
endif
else ifneq ($(filter-out x86 x86_64,$(ARCH)),)
$(error ARCH=$(ARCH) is not supported: use ARCH=arm64 or leave ARCH unset (x86_64))
else
ARCH_OUT := $(BB)
ARCH_FRAGMENTS :=
IMAGE_PATH := arch/x86/boot/bzImage
endif
OUTS := $(if $(MANAGED),$(ARCH_OUT),$(ARCH_OUT)/trees/$(subst /,_,$(abspath $(KSRC))))
KOUT ?= $(OUTS)/kernel
STOUT ?= $(OUTS)/selftests
TPOUT ?= $(OUTS)/bpf-selftests
# The debug kernel (lockdep, KASAN, kmemleak, failslab) and its test_progs.
KDOUT ?= $(OUTS)/kernel-debug
TPDOUT ?= $(OUTS)/bpf-selftests-debug
# The unpatched base, for make bench: a worktree of $(B)/linux at tag base.
STOCK_SRC := $(BB)/stock/linux
STOCK_OUT ?= $(ARCH_OUT)/stock/kernel
STOCK_TP := $(BB)/stock/bpf-selftests
# Debian's config (make distro-config) on top of ours; the same relative
# layout as the source trees, so ccache shares objects between the two.
DISTRO_KOUT := $(BB)/distro/kernel
STOCK_DISTRO_OUT := $(BB)/stock/distro/kernel
# make failure-rate: one test_progs test, once per boot, BOOTS boots each.
TEST ?= lsm_cgroup
VCPUS ?= 2
BOOTS ?= 10
BENCH_OUT ?= $(ARCH_OUT)/bench
LOGS := $(OUTS)/logs
# KTAP per boot and junit.xml: make check's, make check-debug's.
RESULTS := $(OUTS)/results
GUEST_TIMEOUT ?= 900
DEBUG_GUEST_TIMEOUT ?= 7200
BZIMAGE := $(KOUT)/$(IMAGE_PATH)
# The arm64 guest's userland (scripts/build-initramfs.sh); run-guest.sh
# boots it for KRSI_ARCH=arm64.
INITRD := $(OUTS)/initramfs.cpio.gz
ifeq ($(ARCH),arm64)
GUEST := initramfs
export KRSI_ARCH := arm64
export KRSI_INITRD := $(INITRD)
else
GUEST :=
endif

RUN_GUEST := $(ROOT)/scripts/run-guest.sh

.PHONY: all demo check check-debug check-cycles vm kernel initramfs debug-kernel tree deps selftests bpf-selftests bpf-selftests-debug stock-kernel stock-bpf-selftests failure-rate attach-churn distro-config distro-kernel stock-distro-kernel check-distro bench breakdown docs docs-update lint patches clean distclean help

all: demo ## prepare the base, apply the series, build, boot, show a deny and its lifting [ARCH LSM]

demo: kernel selftests $(GUEST) ## boot the guest and run the file_open deny/allow demonstration [ARCH LSM KSRC GUEST_TIMEOUT]
	$(RUN_GUEST) $(BZIMAGE) $(LOGS)/demo.log $(GUEST_TIMEOUT) $(LSM) -- \
		$(ROOT)/selftests/guest/run-tests.sh pipeline:$(STOUT)/file_open_deny

check: kernel selftests bpf-selftests $(GUEST) ## every selftest in the guest, the harness's own tests; ends with "N passed, N failed, N skipped" [ARCH LSM KSRC GUEST_TIMEOUT; exit 2 on any failure (scripts/ci-check.sh tells a failed test, 1, from a failed build, 2)]
	@$(ROOT)/scripts/check.sh $(BZIMAGE) $(LOGS) $(RESULTS) $(GUEST_TIMEOUT) $(LSM) $(STOUT) $(TPOUT)

check-debug: debug-kernel selftests bpf-selftests-debug ## every selftest on the debug kernel, longer stress, fail_nth, kmemleak [LSM KSRC DEBUG_GUEST_TIMEOUT]
	@$(ROOT)/scripts/check.sh $(KDOUT)/arch/x86/boot/bzImage $(LOGS)/debug $(RESULTS)/debug \
		$(DEBUG_GUEST_TIMEOUT) $(LSM) $(STOUT) $(TPDOUT) debug

check-cycles: kernel selftests $(GUEST) ## lsm_hostile with 10,000 attach/detach cycles in the guest [ARCH LSM KSRC]
	$(RUN_GUEST) $(BZIMAGE) $(LOGS)/cycles.log 5400 $(LSM) -- \
		$(ROOT)/selftests/guest/run-tests.sh $(STOUT)/lsm_hostile,10000

vm: kernel $(GUEST) ## an interactive shell in the test guest (exit the shell to power off) [ARCH LSM KSRC]
	$(RUN_GUEST) -i $(BZIMAGE) $(LOGS)/vm.log 0 $(LSM) -- setsid -c -w bash -i

deps: ## install the Debian packages the pipeline needs (apt) [ARCH]
	@$(ROOT)/scripts/install-deps.sh

tree: deps ## the kernel tree: pristine base (tag "base") + the series [TARBALL BASE_OK]
ifneq ($(MANAGED),)
	@$(ROOT)/scripts/prepare-base.sh $(KSRC) $(TARBALL) $(SERIES)
	@$(ROOT)/scripts/apply-series.sh $(KSRC) $(SERIES) $(PATCHDIR)
endif

$(KOUT)/.config: $(FRAGMENTS) $(ARCH_FRAGMENTS) $(wildcard $(KSRC)/.git/krsi-series-applied) | tree
	@$(ROOT)/scripts/configure-kernel.sh $(KSRC) $(KOUT) $(ARCH_FRAGMENTS) $(FRAGMENTS)

kernel: tree $(KOUT)/.config ## configure and build bzImage (ARCH=arm64: Image), modules_prepare and vmlinux (BTF) [ARCH KSRC KOUT]
	@$(ROOT)/scripts/build-kernel.sh $(KSRC) $(KOUT)

initramfs: $(INITRD) ## ARCH=arm64: the guest's arm64 userland, busybox-static and bash-static [ARCH=arm64]

$(INITRD): $(ROOT)/scripts/build-initramfs.sh $(wildcard $(ROOT)/selftests/guest/initramfs/krsi-init $(ROOT)/selftests/guest/initramfs/bin/*) | kernel
	@$(ROOT)/scripts/build-initramfs.sh $(KOUT) $@

$(KDOUT)/.config: $(FRAGMENTS) kernel-config-debug.fragment $(wildcard $(KSRC)/.git/krsi-series-applied) | tree
	@$(ROOT)/scripts/configure-kernel.sh $(KSRC) $(KDOUT) $(FRAGMENTS) \
		$(ROOT)/kernel-config-debug.fragment

debug-kernel: tree $(KDOUT)/.config ## the same kernel with lockdep, KASAN, kmemleak and failslab [KSRC KDOUT]
	@$(ROOT)/scripts/build-kernel.sh $(KSRC) $(KDOUT)

selftests: kernel ## build the BPF test programs against the new vmlinux [ARCH KSRC STOUT]
	@$(MAKE) -s -C $(ROOT)/selftests KSRC=$(abspath $(KSRC)) KOUT=$(abspath $(KOUT)) OUT=$(abspath $(STOUT))

bpf-selftests: kernel ## build the tree's upstream test_progs (tools/testing/selftests/bpf) out of tree [ARCH KSRC TPOUT]
	@$(ROOT)/scripts/build-bpf-selftests.sh $(KSRC) $(KOUT) $(TPOUT)

bpf-selftests-debug: debug-kernel ## test_progs and bpf_testmod.ko for the debug kernel [KSRC TPDOUT]
	@$(ROOT)/scripts/build-bpf-selftests.sh $(KSRC) $(KDOUT) $(TPDOUT)

stock-kernel: tree ## build the unpatched base with the same config, for make bench [ARCH TARBALL]
	@$(ROOT)/scripts/prepare-stock.sh $(BB)/linux $(STOCK_SRC)
	@$(ROOT)/scripts/configure-kernel.sh $(STOCK_SRC) $(STOCK_OUT) $(ARCH_FRAGMENTS) $(FRAGMENTS)
	@$(ROOT)/scripts/build-kernel.sh $(STOCK_SRC) $(STOCK_OUT)

stock-bpf-selftests: stock-kernel ## the unpatched base's test_progs, for make failure-rate [TARBALL]
	@$(ROOT)/scripts/build-bpf-selftests.sh $(STOCK_SRC) $(STOCK_OUT) $(STOCK_TP)

failure-rate: kernel bpf-selftests stock-bpf-selftests ## TEST's failing boots out of BOOTS, stock 6.1 against the series (VCPUS=2) [TEST VCPUS BOOTS LSM]
	@mkdir -p $(RESULTS)
	@$(ROOT)/scripts/repeat-boots.sh $(TEST) $(LSM) $(VCPUS) $(BOOTS) $(RESULTS)/failure-rate \
		stock=$(STOCK_OUT)/arch/x86/boot/bzImage,test_progs=$(STOCK_TP):$(TEST) \
		series=$(BZIMAGE),test_progs=$(TPOUT):$(TEST) | \
		tee $(RESULTS)/failure-rate-$(TEST)-$(VCPUS)vcpu.txt

# make attach-churn: lsm_attach_churn under multi-threaded TCG by default,
# where stock 6.1 panics on a stale int3 (Documentation/int3-churn.md).
ACCEL ?= tcg
CYCLES ?= 300

attach-churn: kernel selftests stock-kernel ## lsm_attach_churn (a deny and an fentry program on file_mprotect, a second program attached and detached CYCLES times) in BOOTS boots each of stock 6.1 and the series, 2 vCPUs under ACCEL [BOOTS CYCLES ACCEL LSM]
	@mkdir -p $(RESULTS)
	@KRSI_ACCEL=$(ACCEL) $(ROOT)/scripts/repeat-boots.sh lsm_attach_churn $(LSM) 2 $(BOOTS) \
		$(RESULTS)/attach-churn stock=$(STOCK_OUT)/arch/x86/boot/bzImage,$(STOUT)/lsm_attach_churn,$(CYCLES) \
		series=$(BZIMAGE),$(STOUT)/lsm_attach_churn,$(CYCLES) | tee $(RESULTS)/attach-churn.txt

distro-config: deps ## build/distro/kernel-config-distro.fragment: Debian's security and hook-cost options
	@mkdir -p $(BB)/distro
	@$(ROOT)/scripts/distro-config.sh $(BASE) $(BB)/distro/kernel-config-distro.fragment

# The pipeline's config with Debian's security and hook-cost options on
# top; CONFIG_LSM is Debian's, so kernel-config.fragment's is left out.
$(BB)/distro/kernel-config-nolsm.fragment: $(FRAGMENTS)
	@mkdir -p $(@D)
	@cat $^ | grep -v '^CONFIG_LSM=' >$@
DISTRO_FRAGMENTS := $(BB)/distro/kernel-config-nolsm.fragment $(BB)/distro/kernel-config-distro.fragment

distro-kernel: tree distro-config $(BB)/distro/kernel-config-nolsm.fragment ## the series with Debian's config options (build/distro/kernel) [KSRC]
	@$(ROOT)/scripts/configure-kernel.sh $(KSRC) $(DISTRO_KOUT) $(DISTRO_FRAGMENTS)
	@$(ROOT)/scripts/build-kernel.sh $(KSRC) $(DISTRO_KOUT)

# Debian's CONFIG_LSM, read when the recipe runs (after the build).
DISTRO_LSM = $(shell sed -n 's/^CONFIG_LSM="\(.*\)"$$/\1/p' $(DISTRO_KOUT)/.config)

check-distro: distro-kernel ## make check on the Debian-config kernel with Debian's lsm= (AppArmor active, no policy) [KSRC GUEST_TIMEOUT]
	@$(MAKE) -s -C $(ROOT)/selftests KSRC=$(abspath $(KSRC)) KOUT=$(DISTRO_KOUT) OUT=$(BB)/distro/selftests
	@$(ROOT)/scripts/build-bpf-selftests.sh $(KSRC) $(DISTRO_KOUT) $(BB)/distro/bpf-selftests
	@$(ROOT)/scripts/check.sh $(DISTRO_KOUT)/arch/x86/boot/bzImage $(LOGS)/distro $(RESULTS)/distro \
		$(GUEST_TIMEOUT) $(DISTRO_LSM) $(BB)/distro/selftests $(BB)/distro/bpf-selftests

stock-distro-kernel: tree distro-config $(BB)/distro/kernel-config-nolsm.fragment ## the unpatched base with Debian's config options, for make bench
	@$(ROOT)/scripts/prepare-stock.sh $(BB)/linux $(STOCK_SRC)
	@$(ROOT)/scripts/configure-kernel.sh $(STOCK_SRC) $(STOCK_DISTRO_OUT) $(DISTRO_FRAGMENTS)
	@$(ROOT)/scripts/build-kernel.sh $(STOCK_SRC) $(STOCK_DISTRO_OUT)

# Two sets of kernels, stock and series each: the pipeline's config with
# lsm=$(LSM) minus bpf, and the same with Debian's options and Debian's
# CONFIG_LSM (the empty <lsm>).
comma := ,
empty :=
space := $(empty) $(empty)
BENCH_LSM := $(subst $(space),$(comma),$(filter-out bpf,$(subst $(comma),$(space),$(LSM))))
BENCH_OPTS ?=

ifeq ($(ARCH),arm64)
# Stock arm64 6.1 cannot attach LSM programs (no ftrace direct calls):
# there the configurations with programs on stock, (4) and (7), are left
# out, as are the attach cycles of (2) and (3), and stock-attach.txt
# records why.
ifeq ($(BASE),6.1)
ARM64_BENCH_CONFIGS := -C 1,2,3,5,6,8 -c 0
endif
bench: kernel selftests initramfs stock-kernel ## instructions per operation, stock against the series, our config and Debian's (QEMU -icount; ARCH=arm64: our config; on 6.1 without (4) and (7)) [ARCH LSM BENCH_OUT BENCH_OPTS]
	@$(MAKE) -s -C $(ROOT)/selftests/bench KSRC=$(abspath $(KSRC)) KOUT=$(abspath $(KOUT)) \
		STOUT=$(abspath $(STOUT)) OUT=$(abspath $(BENCH_OUT)) ARCH=arm64
	@$(ROOT)/scripts/bench.sh -o $(BENCH_OUT) -b $(BENCH_OUT) $(ARM64_BENCH_CONFIGS) $(BENCH_OPTS) \
		"defconfig:$(BENCH_LSM):$(STOCK_OUT)/$(IMAGE_PATH):$(BZIMAGE):arm64 defconfig + kvm_guest.config + $(subst $(space), + ,$(notdir $(ARCH_FRAGMENTS) $(FRAGMENTS)))"
	@$(ROOT)/scripts/bench-report.py $(BENCH_OUT)
ifeq ($(BASE),6.1)
	@$(ROOT)/scripts/bench-stock-attach.sh $(STOCK_OUT)/$(IMAGE_PATH) $(BENCH_OUT) $(BENCH_LSM),bpf \
		>$(BENCH_OUT)/stock-attach.txt
endif
else
bench: kernel selftests stock-kernel distro-kernel stock-distro-kernel ## instructions per operation, stock against the series, our config and Debian's (QEMU -icount; ARCH=arm64: our config; on 6.1 without (4) and (7)) [ARCH LSM BENCH_OUT BENCH_OPTS]
	@$(MAKE) -s -C $(ROOT)/selftests/bench KSRC=$(abspath $(KSRC)) KOUT=$(abspath $(KOUT)) \
		STOUT=$(abspath $(STOUT)) OUT=$(abspath $(BENCH_OUT))
	@$(ROOT)/scripts/bench.sh -o $(BENCH_OUT) -b $(BENCH_OUT) $(BENCH_OPTS) \
		"defconfig:$(BENCH_LSM):$(STOCK_OUT)/arch/x86/boot/bzImage:$(BZIMAGE):x86_64_defconfig + kvm_guest.config + $(subst $(space), + ,$(notdir $(FRAGMENTS)))" \
		"distro::$(STOCK_DISTRO_OUT)/arch/x86/boot/bzImage:$(DISTRO_KOUT)/arch/x86/boot/bzImage:the same + Debian linux-config-$(BASE) security and hook-cost options (make distro-config)"
	@$(ROOT)/scripts/bench-report.py $(BENCH_OUT)
endif

# make breakdown: one security_file_mprotect() call single-stepped under
# gdb in QEMU, with no program and with bench_attach's allow-all program,
# on the base's series and stock kernels: instructions per function and
# per part (Documentation/attached-cost.md; copy a run's directories to
# Documentation/breakdown/<base>-series and <base>-stock to publish it).
BREAKDOWN_OUT ?= $(ARCH_OUT)/breakdown
BREAKDOWN_INITRD := $(if $(filter arm64,$(ARCH)),-i $(abspath $(INITRD)))

breakdown: kernel selftests stock-kernel $(if $(filter arm64,$(ARCH)),initramfs) ## instructions per function of one mprotect() hook call, no program against one, series and stock (gdb single-step in QEMU) [ARCH LSM BENCH_OUT BREAKDOWN_OUT]
	@$(MAKE) -s -C $(ROOT)/selftests/bench KSRC=$(abspath $(KSRC)) KOUT=$(abspath $(KOUT)) \
		STOUT=$(abspath $(STOUT)) OUT=$(abspath $(BENCH_OUT))
	@$(ROOT)/scripts/hook-breakdown.py -b $(abspath $(BENCH_OUT))/bench_attach $(BREAKDOWN_INITRD) \
		$(KOUT) $(LSM) $(BREAKDOWN_OUT)/series
	@$(ROOT)/scripts/hook-breakdown.py -b $(abspath $(BENCH_OUT))/bench_attach $(BREAKDOWN_INITRD) \
		$(STOCK_OUT) $(LSM) $(BREAKDOWN_OUT)/stock

docs-update: ## rewrite the generated parts of README.md and Documentation/ from their sources
	@$(ROOT)/scripts/docs-generate.py --base 6.12 --update $(ROOT)/README.md
	@$(ROOT)/scripts/bench-docs.py $(shell $(ROOT)/scripts/bench-runs.sh) --update $(ROOT)/README.md \
		$(ROOT)/Documentation/residual-cost.md $(ROOT)/Documentation/distributions.md
	@$(ROOT)/scripts/breakdown-docs.py $(ROOT)/Documentation/attached-cost.md $(ROOT)/Documentation/breakdown

docs: tree ## Documentation/bpf with Sphinx; fails on warnings in prog_lsm.rst
	@$(ROOT)/scripts/build-docs.sh $(KSRC) $(BB)/docs

lint: tree ## checkpatch --strict every patch, quilt-apply, build after each patch [KSRC]
	@$(ROOT)/scripts/lint-series.sh $(KSRC) $(SERIES) $(PATCHDIR) $(BB)/lint $(FRAGMENTS)

patches: ## regenerate patches/ and series from the commits base..HEAD of build/linux [KSRC]
	@$(ROOT)/scripts/export-patches.sh $(KSRC) $(SERIES) $(PATCHDIR) $(COVER)

clean: ## remove build outputs, keep the kernel tree and ccache [ARCH KSRC]
	rm -rf $(KOUT) $(KDOUT) $(STOUT) $(TPOUT) $(TPDOUT) $(LOGS) $(RESULTS) $(if $(GUEST),$(INITRD),$(BB)/lint)
ifneq ($(MANAGED),)
	if [ -d $(KSRC)/.git ]; then git -C $(KSRC) worktree prune; fi
endif

distclean: ## remove everything under build/ [B]
	rm -rf $(B)

help: ## this list: each target once, the variables it reads in brackets
	@echo "  BASE=6.12 (default) or BASE=6.1: the base every target works on (Documentation/development.md)"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk '{ t = $$1; sub(/:$$/, "", t); sub(/^[^#]*## /, ""); if (!seen[t]++) printf "  make %-20s %s\n", t, $$0 }'
