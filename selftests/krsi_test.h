/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal check helpers for the KRSI BPF-LSM selftests.
 *
 * Everything goes to stdout as "# " diagnostic lines.  A failed check
 * prints "# <file>:<line>: <what> (expected X, got Y)" and marks the test
 * failed; each check evaluates to true when it passed, so a step can stop
 * at its first failure.  krsi_exit() turns the verdict into the kselftest
 * exit code: 0 pass, 1 fail, 4 skip.
 */
#ifndef __KRSI_TEST_H
#define __KRSI_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <bpf/libbpf.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

static int krsi_failed;
static const char *krsi_skip_reason;

static inline void krsi_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void krsi_note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static inline void krsi_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void krsi_fail(const char *file, int line, const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	va_list ap;

	krsi_failed = 1;
	printf("# %s:%d: ", base ? base + 1 : file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* Only for a feature the kernel genuinely lacks, never for a wrong result. */
static inline void krsi_skip(const char *reason)
{
	krsi_skip_reason = reason;
}

/* The kernel's ENOTSUPP, which the attach of a trampoline returns where
 * it cannot be attached; not in the UAPI errno list.
 */
#define KRSI_ENOTSUPP	524
#define KRSI_NO_DIRECT_CALLS \
	"arm64 before 6.4 has no ftrace direct calls: no trampoline attaches at a kernel function's entry"

/* True if a trampoline can attach at a kernel function's entry (fentry,
 * fexit, fmod_ret programs on functions other than the LSM nops, which the
 * series attaches at the hook's call site): that needs ftrace direct
 * calls, which arm64 has since 6.4.
 */
static inline bool krsi_function_trampolines(void)
{
#ifdef __aarch64__
	int major, minor;
	struct utsname u;

	return !uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	       (major > 6 || (major == 6 && minor >= 4));
#else
	return true;
#endif
}

/* True, after a skip, if an attach at a kernel function's entry failed
 * with @err because the kernel cannot attach there at all.
 */
static inline bool krsi_skip_no_direct_calls(int err)
{
	if (err != KRSI_ENOTSUPP || krsi_function_trampolines())
		return false;
	krsi_skip(KRSI_NO_DIRECT_CALLS);
	return true;
}

/* Integer equality. */
#define KRSI_CHECK_EQ(what, expected, got) ({				\
	long long __exp = (expected), __got = (got);			\
	bool __ok = __exp == __got;					\
									\
	if (!__ok)							\
		krsi_fail(__FILE__, __LINE__,				\
			  "%s (expected %lld, got %lld)",		\
			  (what), __exp, __got);			\
	__ok;								\
})

static inline const char *krsi_errstr(int err, char *buf, size_t size)
{
	if (!err)
		return "success";
	snprintf(buf, size, "errno %d: %s", err, strerror(err));
	return buf;
}

/* An errno value, 0 meaning success. */
#define KRSI_CHECK_ERRNO(what, expected, got) ({			\
	int __exp = (expected), __got = (got);				\
	char __ebuf[64], __gbuf[64];					\
	bool __ok = __exp == __got;					\
									\
	if (!__ok)							\
		krsi_fail(__FILE__, __LINE__,				\
			  "%s (expected %s, got %s)", (what),		\
			  krsi_errstr(__exp, __ebuf, sizeof(__ebuf)),	\
			  krsi_errstr(__got, __gbuf, sizeof(__gbuf)));	\
	__ok;								\
})

/* A libc call returning -1 and setting errno on failure. */
#define KRSI_CHECK_SYSCALL(what, ret) ({				\
	long long __ret = (ret);					\
	int __err = errno;						\
	bool __ok = __ret != -1;					\
									\
	if (!__ok)							\
		krsi_fail(__FILE__, __LINE__,				\
			  "%s (expected success, got errno %d: %s)",	\
			  (what), __err, strerror(__err));		\
	__ok;								\
})

/* A libbpf call returning 0 or a negative errno. */
#define KRSI_CHECK_OK(what, ret) ({					\
	int __ret = (ret);						\
									\
	if (__ret)							\
		krsi_fail(__FILE__, __LINE__,				\
			  "%s (expected 0, got %d: %s)",		\
			  (what), __ret, strerror(-__ret));		\
	!__ret;								\
})

/* A libbpf call returning a pointer, or NULL and setting errno. */
#define KRSI_CHECK_PTR(what, ptr) ({					\
	const void *__ptr = (ptr);					\
	int __err = errno;						\
									\
	if (!__ptr)							\
		krsi_fail(__FILE__, __LINE__,				\
			  "%s (expected an object, got NULL, errno %d: %s)", \
			  (what), __err, strerror(__err));		\
	__ptr != NULL;							\
})

/* libbpf warnings and errors, one "# " line each; debug output dropped. */
static inline int krsi_libbpf_print(enum libbpf_print_level level,
				    const char *fmt, va_list ap)
{
	char *buf, *line, *next;
	va_list aq;
	int len;

	if (level == LIBBPF_DEBUG)
		return 0;
	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len < 0)
		return len;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	vsnprintf(buf, len + 1, fmt, ap);
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (!next)
			next = line + strlen(line);
		printf("# %.*s\n", (int)(next - line), line);
		if (*next)
			next++;
	}
	free(buf);
	return len;
}

/*
 * Only for the harness's own test (selftests/harness/forced-failures.sh):
 * true when $KRSI_FORCE_FAIL names @test, whose one assertion using it
 * then expects a wrong value and fails as a regression would.
 */
static inline bool krsi_forced_failure(const char *test)
{
	const char *forced = getenv("KRSI_FORCE_FAIL");

	return forced && !strcmp(forced, test);
}

static inline void krsi_init(void)
{
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(krsi_libbpf_print);
	/* A no-op since libbpf 1.0, kept so older libbpf behaves the same. */
	err = libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	KRSI_CHECK_OK("libbpf_set_strict_mode", err);
}

static inline int krsi_exit(const char *name)
{
	if (krsi_failed) {
		krsi_note("%s: FAIL", name);
		return KSFT_FAIL;
	}
	if (krsi_skip_reason) {
		krsi_note("%s: SKIP (%s)", name, krsi_skip_reason);
		return KSFT_SKIP;
	}
	krsi_note("%s: PASS", name);
	return KSFT_PASS;
}

#endif /* __KRSI_TEST_H */
