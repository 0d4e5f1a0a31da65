# SPDX-License-Identifier: GPL-2.0
#
# The target architecture of selftests/Makefile and selftests/bench/Makefile:
# x86_64 (ARCH unset), or ARCH=arm64, cross-built with $(CROSS_COMPILE)gcc,
# linked statically (the arm64 guest's userland has no libelf; Debian's
# libelf.a needs libzstd), BPF objects with __TARGET_ARCH_arm64.

ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
CC := $(CROSS_COMPILE)gcc
bpf_arch := arm64
static_ldflags := -static
static_ldlibs := -lzstd
else ifneq ($(filter-out x86 x86_64,$(ARCH)),)
$(error ARCH=$(ARCH) is not supported: use ARCH=arm64 or leave ARCH unset (x86_64))
else
CROSS_COMPILE :=
bpf_arch := x86
endif
