// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_random [seconds [seed]]: seeded random sequences of bpf() operations
 * on three hooks (file_open, task_prctl, file_mprotect) by NR_MUTATORS
 * threads, while NR_PROBES threads make the hooks' marker calls (an open()
 * of MARKER_FILE, prctl(PRCTL_MARKER), mprotect() of their marker page)
 * and check what they get.
 *
 * Each mutator has a pool of programs (progs/lsm_random.bpf.c: per hook an
 * lsm/ deny and allow program, fentry and fexit on the nop, an lsm_cgroup
 * deny and allow program) and, in sequences of 8 to 40 steps, attaches them
 * (BPF_LINK_CREATE or BPF_RAW_TRACEPOINT_OPEN; lsm_cgroup to a threaded
 * cgroup the probes move into and out of), closes link fds, detaches
 * (BPF_LINK_DETACH), swaps programs (BPF_LINK_UPDATE), pins links in bpffs,
 * drops and gets back their fds and unpins them; it drops CAP_MAC_ADMIN
 * (and CAP_SYS_ADMIN or not) from its own thread's effective set and takes
 * it back; now and then it floods a nop with fresh tracing programs and
 * then attaches a policy program there. After a sequence it closes all it
 * has; sometimes it then loads its pool anew. Invariants:
 *
 *  1. A marker call made while a denying lsm/ link (or an lsm_cgroup one on
 *     the probe's cgroup) was attached from before the call until after it
 *     fails with EPERM; one made while none was even being attached works.
 *  2. Attaching, updating or detaching a policy program without
 *     CAP_MAC_ADMIN fails with EPERM; tracing programs on the nops attach
 *     with CAP_BPF and CAP_PERFMON.
 *  3. A policy attach with CAP_MAC_ADMIN fails with E2BIG only when
 *     POLICY_SLOTS policy links are on the hook, whatever the tracing
 *     programs on its nop.
 *  4. At the end no hook is live, and the programs and links created by
 *     the test are gone.
 *
 * The seed fixes each thread's choices, not how the threads interleave; a
 * failure names the seed, the thread and its step. The first violation
 * stops the run. Bounded by @seconds (default 20) and MAX_STEPS.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "krsi_lsm.h"
#include "krsi_test.h"
#include "lsm_random.skel.h"

#define NR_MUTATORS	4
#define NR_PROBES	2
#define NR_HOOKS	3
#define MAX_STEPS	100000	/* over all mutators */
/*
 * Trampoline slots of a bpf_lsm_* nop that stay for policy programs however
 * many tracing programs attached: BPF_MAX_TRAMP_LINKS / 2 of x86-64's 38,
 * tracing programs taking at most the other half. Adjust with that rule.
 */
#define POLICY_SLOTS	19
/*
 * lsm_cgroup shims of a hook that may still hold a slot: the last lsm_cgroup
 * link's detach releases its shim with a deferred bpf_link_put(), and the
 * next attach installs a new one meanwhile.
 */
#define SHIM_SLACK	2
/* What a tracing attach to a full nop gets: the kernel's answer, not ours. */
#define TRACING_FULL	E2BIG
#define FLOOD_MAX	38	/* fresh tracing programs a flood attaches, at most */
#define PRCTL_MARKER	0x4b525349	/* as in the programs */
#define MARKER_FILE	"/tmp/lsm_random.marker"
#define PIN_DIR		"/sys/fs/bpf/krsi_random"
#define CG_ROOT		"/sys/fs/cgroup"
#define CG_BASE		CG_ROOT "/krsi_random"
#define CG_IN		CG_BASE "/in"
#define MAX_REPORTS	10

enum kind { K_LSM_DENY, K_LSM_ALLOW, K_FENTRY, K_FEXIT, K_CG_DENY, K_CG_ALLOW, NR_KINDS };

static const char *const kind_names[NR_KINDS] = {
	"lsm_deny", "lsm_allow", "fentry", "fexit", "cg_deny", "cg_allow",
};
static const enum bpf_attach_type attach_types[NR_KINDS] = {
	BPF_LSM_MAC, BPF_LSM_MAC, BPF_TRACE_FENTRY, BPF_TRACE_FEXIT,
	BPF_LSM_CGROUP, BPF_LSM_CGROUP,
};
static const char *const hook_names[NR_HOOKS] = {
	"file_open", "task_prctl", "file_mprotect",
};
static const char *const hook_short[NR_HOOKS] = { "open", "prctl", "mprotect" };

static bool is_policy(int k) { return k != K_FENTRY && k != K_FEXIT; }
static bool is_cg(int k) { return k == K_CG_DENY || k == K_CG_ALLOW; }

/*
 * The test's links on each hook, per kind. sure: attach returned, detach
 * not yet started; maybe: from before the attach until after the detach
 * returned. rises and drops count the increments of maybe and the
 * decrements of sure, so that a probe can tell that a count it read before
 * and after its call did not dip or rise in between.
 */
struct tally {
	int sure[NR_KINDS], maybe[NR_KINDS];
	unsigned long rises[NR_KINDS], drops[NR_KINDS];
};

struct rlink {
	int hook, kind;
	int fd;			/* -1: held by its pin only */
	bool pinned, attached;	/* attached: not BPF_LINK_DETACHed */
	char path[64];
};

struct mutator {
	int id;
	__u64 rng;
	struct lsm_random *skel;
	struct bpf_program *prog[NR_HOOKS][NR_KINDS];
	bool busy[NR_HOOKS][NR_KINDS];	/* the program is in one of links[] */
	struct rlink links[NR_HOOKS * NR_KINDS];
	int nr_links;
	bool mac_admin;
	unsigned long seq, step, pins;
	const char *op;
	pthread_t thread;
};

struct probe {
	int id;
	__u64 rng;
	void *page;
	bool in_cg;
	unsigned long calls;
	pthread_t thread;
};

static struct tally tally[NR_HOOKS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mutator mutators[NR_MUTATORS];
static struct probe probes[NR_PROBES];
static atomic_bool stop;
static atomic_ulong steps, sequences, denials_checked, allows_checked;
static atomic_ulong floods, tracing_e2big, eperm_checked, cg_updates;
static int max_tracing, reports;
static unsigned int seed;
static int cgroup_fd = -1;
static __u32 nop_btf_id[NR_HOOKS];
static struct stat marker_st;
static char *pages;
static long page_size;

static bool stopping(void)
{
	return atomic_load(&stop);
}

static __u64 rnd(__u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static unsigned int below(__u64 *s, unsigned int n)
{
	return rnd(s) % n;
}

/* A violation: reported with the seed, and the run stops. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&report_lock);
	krsi_failed = 1;
	if (reports++ < MAX_REPORTS)
		printf("# lsm_random: seed %u %s\n", seed, msg);
	pthread_mutex_unlock(&report_lock);
	atomic_store(&stop, true);
}

#define mfail(m, fmt, ...)						\
	fail("mutator %d sequence %lu step %lu (%s): " fmt, (m)->id,	\
	     (m)->seq, (m)->step, (m)->op, ##__VA_ARGS__)
#define pfail(p, fmt, ...)						\
	fail("probe %d call %lu: " fmt, (p)->id, (p)->calls, ##__VA_ARGS__)

/* Links of kind @k on @h: @sure and @maybe change by +1, -1 or 0. */
static void account(int h, int k, int sure, int maybe)
{
	struct tally *t = &tally[h];

	pthread_mutex_lock(&lock);
	t->sure[k] += sure;
	t->maybe[k] += maybe;
	t->rises[k] += maybe > 0;
	t->drops[k] += sure < 0;
	if (t->sure[K_FENTRY] + t->sure[K_FEXIT] > max_tracing)
		max_tracing = t->sure[K_FENTRY] + t->sure[K_FEXIT];
	pthread_mutex_unlock(&lock);
}

/* Before an attach, after it (@ok: it worked), before a detach, after it. */
#define pre_on(h, k)		account(h, k, 0, 1)
#define post_on(h, k, ok)	account(h, k, !!(ok), -!(ok))
#define pre_off(h, k)		account(h, k, -1, 0)
#define post_off(h, k, ok)	account(h, k, !(ok), -!!(ok))

/* Closes @fd, the only holder of an attached link of kind @k on @h. */
static void close_attached(int h, int k, int fd)
{
	pre_off(h, k);
	close(fd);	/* the release runs before close() returns */
	post_off(h, k, true);
}

/* Capabilities of the calling thread only: the effective set is the
 * permitted one, less CAP_MAC_ADMIN and CAP_SYS_ADMIN unless asked for.
 */
static bool set_caps(bool mac_admin, bool sys_admin)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	int i;

	if (syscall(SYS_capget, &hdr, d))
		return false;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		d[i].effective = d[i].permitted;
	if (!mac_admin)
		d[CAP_TO_INDEX(CAP_MAC_ADMIN)].effective &= ~CAP_TO_MASK(CAP_MAC_ADMIN);
	if (!sys_admin)
		d[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	return !syscall(SYS_capset, &hdr, d);
}

/* Into *@policy the test's lsm/ links on @h and into *@shims its lsm_cgroup
 * shims there (one while an lsm_cgroup link is, SHIM_SLACK more being
 * released), into *@tracing its tracing links there; each counting those
 * being attached or detached. Called after a failed attach was accounted.
 */
static void slots(int h, int *policy, int *shims, int *tracing)
{
	struct tally *t = &tally[h];
	int cg;

	pthread_mutex_lock(&lock);
	*policy = t->maybe[K_LSM_DENY] + t->maybe[K_LSM_ALLOW];
	cg = t->maybe[K_CG_DENY] + t->maybe[K_CG_ALLOW];
	*tracing = t->maybe[K_FENTRY] + t->maybe[K_FEXIT];
	pthread_mutex_unlock(&lock);
	*shims = (cg > 0) + SHIM_SLACK;
}

/* Attach @prog_fd of kind @k to hook @h: the link's fd, or -errno.
 * Invariants 2 and 3; any other failure is a violation too.
 */
static int attach(struct mutator *m, int h, int k, int prog_fd)
{
	bool raw = !is_cg(k) && below(&m->rng, 2);
	const char *how = raw ? "BPF_RAW_TRACEPOINT_OPEN" : "BPF_LINK_CREATE";
	int fd, err, policy, shims, tracing;

	pre_on(h, k);
	if (is_cg(k))
		fd = bpf_link_create(prog_fd, cgroup_fd, BPF_LSM_CGROUP, NULL);
	else if (raw)
		fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	else
		fd = bpf_link_create(prog_fd, 0, attach_types[k], NULL);
	err = fd < 0 ? -fd : 0;
	post_on(h, k, !err);
	if (is_policy(k) && !m->mac_admin) {
		atomic_fetch_add(&eperm_checked, 1);
		if (err != EPERM)
			mfail(m, "%s of %s on %s without CAP_MAC_ADMIN: expected EPERM, got %s",
			      how, kind_names[k], hook_names[h], strerror(err));
		if (!err)
			close_attached(h, k, fd);
		return -EPERM;
	}
	if (err == TRACING_FULL && !is_policy(k)) {
		atomic_fetch_add(&tracing_e2big, 1);
		return -err;
	}
	if (is_policy(k) && err == E2BIG) {
		slots(h, &policy, &shims, &tracing);
		if (policy + shims < POLICY_SLOTS)
			mfail(m, "%s of %s on %s: E2BIG with %d lsm/ links and at most %d lsm_cgroup shims on the hook (fewer than %d policy links) and %d tracing links of the test on bpf_lsm_%s",
			      how, kind_names[k], hook_names[h], policy, shims,
			      POLICY_SLOTS, tracing, hook_names[h]);
	} else if (err) {
		mfail(m, "%s of %s on %s: %s", how, kind_names[k], hook_names[h],
		      strerror(err));
	}
	return err ? -err : fd;
}

static int prog_fd(struct mutator *m, int h, int k)
{
	return bpf_program__fd(m->prog[h][k]);
}

enum { NEED_FD = 1, NEED_NO_FD = 2, NEED_PIN = 4, NEED_NO_PIN = 8 };

/* A random link of @m matching @need, or NULL. */
static struct rlink *pick(struct mutator *m, int need)
{
	struct rlink *l, *found = NULL;
	unsigned int n = 0;
	int i;

	for (i = 0; i < m->nr_links; i++) {
		l = &m->links[i];
		if (((need & NEED_FD) && l->fd < 0) || ((need & NEED_NO_FD) && l->fd >= 0) ||
		    ((need & NEED_PIN) && !l->pinned) || ((need & NEED_NO_PIN) && l->pinned))
			continue;
		if (!below(&m->rng, ++n))	/* reservoir sampling */
			found = l;
	}
	return found;
}

/* Closes the link's fd: its detach unless a pin holds it. */
static void drop_fd(struct mutator *m, struct rlink *l)
{
	bool detaches = !l->pinned && l->attached;

	if (detaches)
		pre_off(l->hook, l->kind);
	close(l->fd);
	l->fd = -1;
	if (detaches)
		post_off(l->hook, l->kind, true);
	if (!l->pinned) {
		m->busy[l->hook][l->kind] = false;
		*l = m->links[--m->nr_links];
	}
}

static void link_detach(struct mutator *m, struct rlink *l)
{
	int k = l->kind, err, expect;
	bool was = l->attached;

	if (is_policy(k) && !m->mac_admin)
		expect = EPERM;
	else if (is_cg(k))
		expect = 0;
	else
		expect = EOPNOTSUPP;	/* tracing links have no detach */
	if (expect == EPERM)
		atomic_fetch_add(&eperm_checked, 1);
	if (was)
		pre_off(l->hook, k);
	err = -bpf_link_detach(l->fd);
	if (was)
		post_off(l->hook, k, !err);
	if (!err)
		l->attached = false;
	if (err != expect)
		mfail(m, "BPF_LINK_DETACH of %s on %s%s: expected %s, got %s",
		      kind_names[k], hook_names[l->hook],
		      m->mac_admin ? "" : " without CAP_MAC_ADMIN",
		      strerror(expect), strerror(err));
}

/* Swap the link's program for its other variant (deny and allow, fentry
 * and fexit: kind ^ 1). Only lsm_cgroup links can: tracing links, lsm/
 * ones included, have no update_prog.
 */
static void link_update(struct mutator *m, struct rlink *l)
{
	int h = l->hook, k = l->kind, nk = k ^ 1, err, expect;
	bool moves = is_cg(k) && l->attached;
	LIBBPF_OPTS(bpf_link_update_opts, opts);

	if (m->busy[h][nk])
		return;
	if (below(&m->rng, 2)) {
		opts.flags = BPF_F_REPLACE;
		opts.old_prog_fd = prog_fd(m, h, k);
	}
	if (is_policy(k) && !m->mac_admin)
		expect = EPERM;
	else if (!is_cg(k))
		expect = EINVAL;
	else
		expect = l->attached ? 0 : ENOLINK;
	if (moves) {
		pre_off(h, k);
		pre_on(h, nk);
	}
	err = -bpf_link_update(l->fd, prog_fd(m, h, nk), &opts);
	if (moves) {
		post_on(h, nk, !err);
		post_off(h, k, !err);
	}
	if (expect == EPERM)
		atomic_fetch_add(&eperm_checked, 1);
	else if (!err)
		atomic_fetch_add(&cg_updates, 1);
	if (!err) {
		m->busy[h][k] = false;
		m->busy[h][nk] = true;
		l->kind = nk;
	}
	if (err != expect)
		mfail(m, "BPF_LINK_UPDATE of %s on %s to %s%s%s: expected %s, got %s",
		      kind_names[k], hook_names[h], kind_names[nk],
		      opts.flags ? " (BPF_F_REPLACE)" : "",
		      m->mac_admin ? "" : " without CAP_MAC_ADMIN",
		      strerror(expect), strerror(err));
}

/* A fresh program returning 0 on hook @h: an lsm/ allow or a tracing one. */
static int load_fresh(int h, int k)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = attach_types[k],
		    .attach_btf_id = nop_btf_id[h]);

	return bpf_prog_load(k == K_LSM_ALLOW ? BPF_PROG_TYPE_LSM : BPF_PROG_TYPE_TRACING,
			     "krsi_fresh", "GPL", ret0, 2, &opts);
}

/*
 * Fill @h's nop with fresh fentry and fexit programs until the kernel
 * refuses one (E2BIG) or FLOOD_MAX are attached, then attach a fresh
 * policy program there: invariant 3 says it still fits.
 */
static void flood(struct mutator *m, int h)
{
	int pfd[FLOOD_MAX], lfd[FLOOD_MAX], kind[FLOOD_MAX], n, pol, link;

	m->op = "flood";
	atomic_fetch_add(&floods, 1);
	for (n = 0; n < FLOOD_MAX && !stopping(); n++) {
		kind[n] = K_FENTRY + below(&m->rng, 2);
		pfd[n] = load_fresh(h, kind[n]);
		if (pfd[n] < 0) {
			mfail(m, "load of a fresh %s program on bpf_lsm_%s: %s", kind_names[kind[n]],
			      hook_names[h], strerror(-pfd[n]));
			break;
		}
		lfd[n] = attach(m, h, kind[n], pfd[n]);
		if (lfd[n] < 0) {
			close(pfd[n]);
			break;
		}
	}
	m->op = "flood: policy attach";
	pol = load_fresh(h, K_LSM_ALLOW);
	if (pol < 0) {
		mfail(m, "load of a fresh lsm/%s program: %s", hook_names[h],
		      strerror(-pol));
	} else {
		link = attach(m, h, K_LSM_ALLOW, pol);
		usleep(below(&m->rng, 20000));	/* let the probes call through it */
		if (link >= 0)
			close_attached(h, K_LSM_ALLOW, link);
		close(pol);
	}
	while (n-- > 0) {
		close_attached(h, kind[n], lfd[n]);
		close(pfd[n]);
	}
}

static void step(struct mutator *m)
{
	unsigned int r = below(&m->rng, 1000);
	int h = below(&m->rng, NR_HOOKS), k = below(&m->rng, NR_KINDS), fd, err;
	struct rlink *l;

	if (r < 350) {
		m->op = "attach";
		if (m->busy[h][k])
			return;
		fd = attach(m, h, k, prog_fd(m, h, k));
		if (fd < 0)
			return;
		m->busy[h][k] = true;
		m->links[m->nr_links++] = (struct rlink){
			.hook = h, .kind = k, .fd = fd, .attached = true };
	} else if (r < 550) {
		m->op = "close";
		if ((l = pick(m, NEED_FD)))
			drop_fd(m, l);
	} else if (r < 620) {
		m->op = "BPF_LINK_DETACH";
		if ((l = pick(m, NEED_FD)))
			link_detach(m, l);
	} else if (r < 720) {
		m->op = "BPF_LINK_UPDATE";
		if ((l = pick(m, NEED_FD)))
			link_update(m, l);
	} else if (r < 790) {
		m->op = "pin";
		if (!(l = pick(m, NEED_FD | NEED_NO_PIN)))
			return;
		snprintf(l->path, sizeof(l->path), PIN_DIR "/m%d-%lu", m->id, m->pins++);
		err = -bpf_obj_pin(l->fd, l->path);
		if (err)
			mfail(m, "pin %s: %s", l->path, strerror(err));
		l->pinned = !err;
	} else if (r < 830) {
		m->op = "get pinned";
		if (!(l = pick(m, NEED_PIN | NEED_NO_FD)))
			return;
		l->fd = bpf_obj_get(l->path);
		if (l->fd < 0)
			mfail(m, "get %s: %s", l->path, strerror(-l->fd));
	} else if (r < 900) {
		/* With an fd held the unlink never drops the last reference:
		 * that one would detach in a work item, after unlink().
		 */
		m->op = "unpin";
		if (!(l = pick(m, NEED_PIN | NEED_FD)))
			return;
		if (unlink(l->path))
			mfail(m, "unpin %s: %s", l->path, strerror(errno));
		l->pinned = false;
	} else if (r < 997) {
		m->op = "capset";
		m->mac_admin = !m->mac_admin;
		if (!set_caps(m->mac_admin, m->mac_admin || below(&m->rng, 2)))
			mfail(m, "capset: %s", strerror(errno));
	} else {
		flood(m, h);
	}
}

/* Closes everything @m holds, with every capability back. */
static void teardown(struct mutator *m)
{
	struct rlink *l;

	m->op = "teardown";
	m->mac_admin = true;
	if (!set_caps(true, true))
		mfail(m, "capset: %s", strerror(errno));
	while (m->nr_links) {
		l = &m->links[m->nr_links - 1];
		if (l->fd < 0)
			l->fd = bpf_obj_get(l->path);
		if (l->fd < 0) {
			mfail(m, "get %s: %s", l->path, strerror(-l->fd));
			unlink(l->path);	/* its detach is deferred: counts are off */
			m->nr_links--;
			continue;
		}
		if (l->pinned && unlink(l->path))
			mfail(m, "unpin %s: %s", l->path, strerror(errno));
		l->pinned = false;
		drop_fd(m, l);
	}
}

static bool load_pool(struct mutator *m)
{
	struct lsm_random *skel = lsm_random__open();
	char name[32];
	int h, k;

	if (!KRSI_CHECK_PTR("lsm_random__open", skel))
		return false;
	skel->rodata->target_tgid = getpid();
	skel->rodata->marker_ino = marker_st.st_ino;
	skel->rodata->marker_dev = major(marker_st.st_dev) << 20 | minor(marker_st.st_dev);
	skel->rodata->page_lo = (unsigned long)pages;
	skel->rodata->page_hi = (unsigned long)pages + NR_PROBES * page_size;
	if (!KRSI_CHECK_OK("lsm_random__load", lsm_random__load(skel))) {
		lsm_random__destroy(skel);
		return false;
	}
	for (h = 0; h < NR_HOOKS; h++)
		for (k = 0; k < NR_KINDS; k++) {
			snprintf(name, sizeof(name), "%s_%s", kind_names[k], hook_short[h]);
			m->prog[h][k] = bpf_object__find_program_by_name(skel->obj, name);
			if (!KRSI_CHECK_PTR(name, m->prog[h][k])) {
				lsm_random__destroy(skel);
				return false;
			}
		}
	m->skel = skel;
	return true;
}

static void *mutator_main(void *arg)
{
	struct mutator *m = arg;
	unsigned long n, len;

	m->mac_admin = true;
	while (!stopping()) {
		m->seq++;
		/* Invariant 3 once per run at least, from the start. */
		if (!m->id && m->seq == 1)
			flood(m, below(&m->rng, NR_HOOKS));
		len = 8 + below(&m->rng, 33);
		for (n = 0; n < len && !stopping(); n++) {
			if (atomic_fetch_add(&steps, 1) >= MAX_STEPS) {
				atomic_store(&stop, true);
				break;
			}
			m->step++;
			step(m);
			usleep(below(&m->rng, 3000));
		}
		teardown(m);
		atomic_fetch_add(&sequences, 1);
		if (!stopping() && !below(&m->rng, 8)) {
			/* A fresh pool: new programs for the same hooks. */
			m->op = "reload";
			lsm_random__destroy(m->skel);
			m->skel = NULL;
			if (!load_pool(m))
				mfail(m, "load of a new pool failed");
			if (!m->skel)
				break;
		}
	}
	return NULL;
}

static bool write_file(const char *path, const char *what)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return false;
	ret = write(fd, what, strlen(what));
	close(fd);
	return ret == (int)strlen(what);
}

/* Writes the calling thread's id to @cg's cgroup.threads. */
static bool move_thread(const char *cg)
{
	char path[128], tid[32];

	snprintf(path, sizeof(path), "%s/cgroup.threads", cg);
	snprintf(tid, sizeof(tid), "%ld\n", (long)syscall(SYS_gettid));
	return write_file(path, tid);
}

/* The marker call on hook @h: 0 when allowed, else the errno. */
static int marker_call(void *page, int h, unsigned long i)
{
	int fd;

	switch (h) {
	case 0:
		fd = open(MARKER_FILE, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case 1:
		/* No such option: EINVAL is what an allowed call gets. */
		if (!prctl(PRCTL_MARKER, 0, 0, 0, 0))
			return -1;
		return errno == EINVAL ? 0 : errno;
	default:
		if (mprotect(page, page_size, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE))
			return errno;
		return 0;
	}
}

struct snap {
	int sure, maybe;
	unsigned long rises, drops;
};

/* The counts of @h's denying links: lsm/ ones in @s[0], lsm_cgroup in @s[1]. */
static void snap(int h, struct snap *s)
{
	int i, k;

	pthread_mutex_lock(&lock);
	for (i = 0; i < 2; i++) {
		k = i ? K_CG_DENY : K_LSM_DENY;
		s[i] = (struct snap){ tally[h].sure[k], tally[h].maybe[k],
				      tally[h].rises[k], tally[h].drops[k] };
	}
	pthread_mutex_unlock(&lock);
}

/* Invariant 1, call after call. */
static void *probe_main(void *arg)
{
	struct snap b[2], a[2];	/* before and after the call */
	struct probe *p = arg;
	bool deny, allow;
	int h, err;

	while (!stopping()) {
		if (!below(&p->rng, 32)) {
			if (!move_thread(p->in_cg ? CG_BASE : CG_IN)) {
				pfail(p, "moving to %s: %s", p->in_cg ? CG_BASE : CG_IN,
				      strerror(errno));
				break;
			}
			p->in_cg = !p->in_cg;
		}
		h = below(&p->rng, NR_HOOKS);
		snap(h, b);
		err = marker_call(p->page, h, p->calls);
		snap(h, a);
		p->calls++;
		/* No drop: a link counted before was there throughout. */
		deny = (b[0].sure > 0 && b[0].drops == a[0].drops) ||
		       (p->in_cg && b[1].sure > 0 && b[1].drops == a[1].drops);
		/* No rise: none was even being attached. */
		allow = !b[0].maybe && b[0].rises == a[0].rises &&
			(!p->in_cg || (!b[1].maybe && b[1].rises == a[1].rises));
		if (deny) {
			atomic_fetch_add(&denials_checked, 1);
			if (err != EPERM)
				pfail(p, "%s %s with %d lsm/ and %d lsm_cgroup (%s cgroup) denying links attached throughout",
				      hook_names[h], err < 0 ? "returned 0" : strerror(err),
				      b[0].sure, b[1].sure, p->in_cg ? "in the" : "not in the");
		} else if (allow) {
			atomic_fetch_add(&allows_checked, 1);
			if (err)
				pfail(p, "%s denied (%s) with no denying link attached",
				      hook_names[h], err < 0 ? "returned 0" : strerror(err));
		} else if (err && err != EPERM) {
			pfail(p, "%s: %s", hook_names[h],
			      err < 0 ? "returned 0" : strerror(err));
		}
	}
	return NULL;
}

/* CG_BASE holds the process, CG_IN (threaded, for per-thread moves) the
 * lsm_cgroup links and, now and then, the probes.
 */
static bool cgroup_setup(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d\n", getpid());
	rmdir(CG_IN);
	rmdir(CG_BASE);
	if (!KRSI_CHECK_SYSCALL("mkdir " CG_BASE, mkdir(CG_BASE, 0755)) ||
	    !KRSI_CHECK_SYSCALL("move to " CG_BASE,
				write_file(CG_BASE "/cgroup.procs", pid) ? 0 : -1) ||
	    !KRSI_CHECK_SYSCALL("mkdir " CG_IN, mkdir(CG_IN, 0755)) ||
	    !KRSI_CHECK_SYSCALL("make " CG_IN " threaded",
				write_file(CG_IN "/cgroup.type", "threaded") ? 0 : -1))
		return false;
	cgroup_fd = open(CG_IN, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return KRSI_CHECK_SYSCALL("open " CG_IN, cgroup_fd);
}

static bool setup(void)
{
	char func[64];
	int fd, h;

	page_size = sysconf(_SC_PAGESIZE);
	pages = mmap(NULL, NR_PROBES * page_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!KRSI_CHECK_SYSCALL("mmap", pages == MAP_FAILED ? -1 : 0))
		return false;
	fd = open(MARKER_FILE, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (!KRSI_CHECK_SYSCALL("create " MARKER_FILE, fd) ||
	    !KRSI_CHECK_SYSCALL("fstat", fstat(fd, &marker_st)))
		return false;
	close(fd);
	if (mkdir(PIN_DIR, 0700) && errno != EEXIST)
		return KRSI_CHECK_SYSCALL("mkdir " PIN_DIR, -1);
	for (h = 0; h < NR_HOOKS; h++) {
		snprintf(func, sizeof(func), "bpf_lsm_%s", hook_names[h]);
		nop_btf_id[h] = krsi_vmlinux_btf_id(func);
		if (!nop_btf_id[h])
			return false;
	}
	return cgroup_setup();
}

static bool hooks_dark(void)
{
	int h;

	for (h = 0; h < NR_HOOKS; h++)
		if (krsi_live_count(hook_names[h]))
			return false;
	return true;
}

/* Everything closed: no hook live, no marker call denied, no count off. */
static void check_after(void)
{
	int h, k, i;

	/* The last lsm_cgroup link of a hook leaves its shim to a work item
	 * (a deferred bpf_link_put()): give it the time objects get.
	 */
	for (i = 0; i < 100 && !hooks_dark(); i++)
		usleep(100000);
	if (i)
		krsi_note("every hook dark %.1f s after the last close", i / 10.0);
	for (h = 0; h < NR_HOOKS; h++) {
		KRSI_CHECK_EQ(hook_names[h], 0, krsi_live_count(hook_names[h]));
		KRSI_CHECK_ERRNO(hook_names[h], 0, marker_call(pages, h, 0));
		for (k = 0; k < NR_KINDS; k++)
			if (tally[h].sure[k] || tally[h].maybe[k])
				krsi_fail(__FILE__, __LINE__, "%s: %d/%d %s links left in the test's count",
					  hook_names[h], tally[h].sure[k], tally[h].maybe[k],
					  kind_names[k]);
	}
	KRSI_CHECK_SYSCALL("rmdir " PIN_DIR " (no pin left)", rmdir(PIN_DIR));
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 20, i, err = 0;
	struct krsi_mark mark0;
	double start, end;
	char pid[32];

	krsi_init();
	seed = argc > 2 ? strtoul(argv[2], NULL, 0) : (unsigned int)time(NULL) ^ getpid();
	if (seconds <= 0) {
		fprintf(stderr, "usage: lsm_random [seconds > 0 [seed]]\n");
		return 2;
	}
	printf("# seed %u\n", seed);
	alarm(seconds + 600);	/* a hang is a failure */
	if (!setup())
		return krsi_exit("lsm_random");
	mark0 = krsi_mark_objects();
	for (i = 0; i < NR_MUTATORS; i++) {
		mutators[i].id = i;
		mutators[i].rng = (seed + 1ULL) * 0x9e3779b97f4a7c15ULL + i * 0xbf58476d1ce4e5b9ULL + 1;
		if (!load_pool(&mutators[i]))
			goto out;
	}
	start = krsi_now();
	for (i = 0; i < NR_PROBES; i++) {
		probes[i].id = i;
		probes[i].rng = (seed + 1ULL) * 0x94d049bb133111ebULL + i + 1;
		probes[i].page = pages + i * page_size;
		err |= pthread_create(&probes[i].thread, NULL, probe_main, &probes[i]);
	}
	for (i = 0; i < NR_MUTATORS; i++)
		err |= pthread_create(&mutators[i].thread, NULL, mutator_main, &mutators[i]);
	if (err) {
		krsi_fail(__FILE__, __LINE__, "pthread_create failed");
		exit(KSFT_FAIL);
	}
	for (end = start + seconds; krsi_now() < end && !stopping();)
		usleep(100000);
	atomic_store(&stop, true);
	for (i = 0; i < NR_PROBES; i++)
		pthread_join(probes[i].thread, NULL);
	for (i = 0; i < NR_MUTATORS; i++)
		pthread_join(mutators[i].thread, NULL);
	krsi_note("ran %.1f s; %lu floods (%lu tracing attaches refused with E2BIG, at most %d tracing links of the test on one nop), %lu allowed calls checked, %lu policy operations without CAP_MAC_ADMIN refused, %lu lsm_cgroup link updates",
		  krsi_now() - start, atomic_load(&floods), atomic_load(&tracing_e2big),
		  max_tracing, atomic_load(&allows_checked), atomic_load(&eperm_checked),
		  atomic_load(&cg_updates));
	if (!krsi_failed) {
		check_after();
		if (!atomic_load(&denials_checked) || !atomic_load(&allows_checked))
			krsi_fail(__FILE__, __LINE__, "no denied or no allowed call was checked");
	}
out:
	for (i = 0; i < NR_MUTATORS; i++)
		lsm_random__destroy(mutators[i].skel);
	KRSI_CHECK_OBJECTS_FREED(&mark0);
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	write_file(CG_ROOT "/cgroup.procs", pid);
	close(cgroup_fd);
	rmdir(CG_IN);
	rmdir(CG_BASE);
	rmdir(PIN_DIR);
	unlink(MARKER_FILE);
	printf("# sequences %lu steps %lu denials-checked %lu seed %u\n",
	       atomic_load(&sequences),
	       atomic_load(&steps) < MAX_STEPS ? atomic_load(&steps) : MAX_STEPS,
	       atomic_load(&denials_checked), seed);
	return krsi_exit("lsm_random");
}
